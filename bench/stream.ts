// Streaming bench (issue 4): what the agents websocket adds on top of talking to the model fixture
// directly, measured in one run. The fixture and the server each run in their own process; this
// process is the clients. Every chunk the fixture writes carries the moment it was written, so
// the delay each token picks up on its way is measured per token, not guessed from totals.
import { type ChildProcess, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ServerFrame } from '@assistente/contracts';
import WebSocket from 'ws';
import { epochNow, readStamps } from '../apps/server/src/test/llm-fixture.ts';

const root = path.resolve(import.meta.dirname, '..');

export interface StreamBenchResult {
  config: {
    streams: number;
    tokensPerStream: number;
    tokenIntervalMs: number;
    /** chat.send frames a second while the streams start. */
    sendRate: number;
    ttftSamples: number;
    database: 'pglite' | 'postgres';
  };
  ttft: {
    directP50Ms: number;
    serverP50Ms: number;
    addedP50Ms: number;
    ratio: number;
    serverP99Ms: number;
    /** Server CPU time per chat.send (all its work, answer included): a figure the machine's load hardly moves. */
    serverCpuMsPerSend: number;
  };
  perToken: { directP50LatencyMs: number; serverP50LatencyMs: number; addedP50Ms: number };
  concurrent: {
    streams: number;
    completed: number;
    failed: number;
    serverCpuPercentOfOneCore: number;
    /** Heap and external buffers per open socket, after collection. */
    memoryPerConnectionKiB: number;
    /** The server's whole resident memory with every socket open. */
    rssWithSocketsMiB: number;
    heapPerConnectionKiB: number;
    /**
     * Each token's delay over its stream's quickest (`tokenLateness`), in the steady state: the
     * window when every stream has started and none has ended.
     */
    tokenLatenessMs: { p50: number; p99: number; max: number; samples: number };
    /** Every token, start-up burst included (a thousand sends arriving at once). */
    tokenLatenessAllMs: { p50: number; p99: number; max: number };
    tokenLatencyMs: { p50: number; p99: number };
    /** From the first send until every stream had its first token. */
    rampSeconds: number;
    steadyWindowSeconds: number;
    directTokenLatenessMs: { p50: number; p99: number; max: number };
    /** The server's main thread over the whole phase: event-loop delay and garbage-collection pauses. */
    serverMainThread: {
      loopDelayP99Ms: number;
      loopDelayMaxMs: number;
      gcPauseMaxMs: number;
      gcTotalMs: number;
    };
    wallSeconds: number;
  };
  budgets: { addedTtftP50Ms: number; p99TokenLatenessMs: number };
  ok: { addedTtftP50: boolean; p99TokenLateness: boolean; allStreamsCompleted: boolean };
  /** 1/5/15-minute load averages at the end and the CPU count: a busy machine inflates every delay here. */
  machine: { loadAverage: number[]; cpus: number };
}

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
};
const round = (n: number) => Math.round(n * 100) / 100;
// Not Math.max(...xs): hundreds of thousands of samples overflow the call stack.
const max = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a), Number.NEGATIVE_INFINITY);
const min = (xs: number[]) => xs.reduce((a, b) => (b < a ? b : a), Number.POSITIVE_INFINITY);

export async function startChild(
  file: string,
  env: Record<string, string>,
  ipc = false,
): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server process there, to see where time goes.
  const prof =
    ipc && process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // The server runs as `npm start` runs it (apps/server/package.json), plus a way to collect
  // garbage before memory figures.
  const flags = ipc ? ['--expose-gc'] : [];
  const child = spawn(process.execPath, [...prof, ...flags, '--import', 'tsx', path.join(root, file)], {
    env: { ...process.env, ...env },
    stdio: ipc ? ['ignore', 'pipe', 'inherit', 'ipc'] : ['ignore', 'pipe', 'inherit'],
  });
  // The child's first line that is not one of its log lines (which go to stdout too).
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (l) => {
      if (!l.startsWith('{"level":')) {
        lines.removeAllListeners('line');
        resolve(l);
      }
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return { child, info: JSON.parse(line) as Record<string, unknown> };
}

interface Stats {
  cpu: NodeJS.CpuUsage;
  rss: number;
  heapUsed: number;
  external: number;
  at: number;
  /** The server's main thread since the previous `stats`. */
  loop: { p99Ms: number; maxMs: number; gcMaxMs: number; gcTotalMs: number };
}
/** The server's CPU time and memory; `collect` runs its GC first (for memory figures only). */
export function stats(child: ChildProcess, collect = false): Promise<Stats> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Stats));
    child.send(collect ? 'stats:gc' : 'stats');
  });
}

/**
 * Memory after garbage from earlier work is collected and its pages handed back: one collection
 * read at once leaves the process shrinking for a while, and a later reading then came out below
 * the baseline (a negative memory per connection).
 */
async function settledStats(child: ChildProcess): Promise<Stats> {
  await stats(child, true);
  await new Promise((r) => setTimeout(r, 1_000));
  await stats(child, true);
  await new Promise((r) => setTimeout(r, 1_000));
  return stats(child, true);
}

/** One SSE stream straight from the fixture: arrival time and stamp of every chunk. */
async function directStream(
  fixturePort: number,
  model: string,
): Promise<Array<{ at: number; stamp: number }>> {
  const res = await fetch(`http://127.0.0.1:${fixturePort}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'bench' }] }),
  });
  const out: Array<{ at: number; stamp: number }> = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const at = epochNow();
    buffer += decoder.decode(chunk, { stream: true });
    let i = buffer.indexOf('\n\n');
    while (i >= 0) {
      const event = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      for (const stamp of readStamps(event)) out.push({ at, stamp });
      i = buffer.indexOf('\n\n');
    }
  }
  return out;
}

/** An authenticated socket collecting, per answer, the arrival time and stamp of each delta. */
export class BenchSocket {
  readonly ws: WebSocket;
  readonly tokens = new Map<string, Array<{ at: number; stamp: number }>>();
  readonly done = new Set<string>();
  readonly errors: string[] = [];
  private listeners: Array<(f: ServerFrame, at: number) => void> = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const at = epochNow();
      const frame = JSON.parse(String(data)) as ServerFrame;
      if (frame.type === 'message.delta') {
        let list = this.tokens.get(frame.messageId);
        if (!list) {
          list = [];
          this.tokens.set(frame.messageId, list);
        }
        for (const stamp of readStamps(frame.delta)) list.push({ at, stamp });
      } else if (frame.type === 'message.done') {
        this.done.add(frame.messageId);
        if (frame.status !== 'complete') this.errors.push(frame.error?.message ?? frame.status);
      } else if (frame.type === 'error') this.errors.push(`${frame.code}: ${frame.message}`);
      for (const l of this.listeners) l(frame, at);
    });
  }

  static async open(url: string, token: string): Promise<BenchSocket> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const s = new BenchSocket(ws);
    const ready = s.wait((f) => f.type === 'ready');
    ws.send(JSON.stringify({ type: 'auth', token }));
    await ready;
    return s;
  }

  wait(pred: (f: ServerFrame) => boolean, timeoutMs = 60_000): Promise<{ frame: ServerFrame; at: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('bench socket: timed out')), timeoutMs);
      const l = (frame: ServerFrame, at: number) => {
        if (!pred(frame)) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((x) => x !== l);
        resolve({ frame, at });
      };
      this.listeners.push(l);
    });
  }

  send(frame: object): void {
    this.ws.send(JSON.stringify(frame));
  }
}

/** Steady state: after the last stream's first token was written, before the first one ended. */
function steadyWindow(series: Array<Array<{ stamp: number }>>): { from: number; to: number } {
  return {
    from: max(series.map((x) => (x[0] as { stamp: number }).stamp)),
    to: min(series.map((x) => (x.at(-1) as { stamp: number }).stamp)),
  };
}

/**
 * How late each token arrives: its delay (arrival − the fixture's write) over the quickest of its
 * stream, whose delay is what the network and this client cost at best. Never negative, unlike a
 * gap's change (a token after a late one arrives sooner than its gap). With a window, only tokens
 * written inside it count.
 */
function tokenLateness(
  series: Array<Array<{ at: number; stamp: number }>>,
  window?: { from: number; to: number },
): number[] {
  const out: number[] = [];
  for (const s of series) {
    let quickest = Number.POSITIVE_INFINITY;
    for (const t of s) quickest = Math.min(quickest, t.at - t.stamp);
    for (const t of s) {
      if (window && (t.stamp < window.from || t.stamp > window.to)) continue;
      out.push(t.at - t.stamp - quickest);
    }
  }
  return out;
}

export async function benchStreaming(): Promise<StreamBenchResult> {
  const streams = Number(process.env.BENCH_STREAMS ?? 1000);
  const tokensPerStream = Number(process.env.BENCH_STREAM_TOKENS ?? 200);
  const sendRate = Number(process.env.BENCH_SEND_RATE ?? 100);
  const tokenIntervalMs = Number(process.env.BENCH_TOKEN_MS ?? 100);
  const ttftSamples = Number(process.env.BENCH_TTFT_SAMPLES ?? 40);

  const fixture = await startChild('bench/stream-fixture.ts', {});
  const fixturePort = fixture.info.port as number;
  const server = await startChild(
    'bench/stream-server.ts',
    { FIXTURE_PORT: String(fixturePort), BENCH_USERS: String(streams) },
    true,
  );
  const { port, providerId, tokens } = server.info as { port: number; providerId: string; tokens: string[] };
  const wsUrl = `ws://127.0.0.1:${port}/api/v1/agents/chat/`;
  const model = (n: number, ms: number) => `${providerId}:stamp-${n}x${ms}`;

  try {
    // 1. Time to first token and per-token latency, one stream at a time, direct and through the
    //    server alternately so drift in machine load hits both alike.
    const probe = await BenchSocket.open(wsUrl, tokens[0] as string);
    const directTtft: number[] = [];
    const serverTtft: number[] = [];
    const directLatency: number[] = [];
    const serverLatency: number[] = [];
    let chatId: string | null = null;
    let sendCpuMicros = 0;
    for (let i = 0; i < ttftSamples + 3; i++) {
      const warm = i < 3;
      let t0 = epochNow();
      const direct = await directStream(fixturePort, 'stamp-10x5');
      if (!warm && direct[0]) {
        directTtft.push(direct[0].at - t0);
        directLatency.push(...direct.map((d) => d.at - d.stamp));
      }
      const requestId = `ttft-${i}`;
      const cpuBefore = warm ? undefined : await stats(server.child);
      const first = probe.wait((f) => f.type === 'message.delta');
      const created = probe.wait(
        (f) => f.type === 'message.created' && f.requestId === requestId && f.message.role === 'assistant',
      );
      t0 = epochNow();
      // The first sample opens a chat; the others continue it, as a conversation does.
      probe.send({
        type: 'chat.send',
        requestId,
        chatId,
        content: `Question ${i}`,
        params: { model: model(10, 5) },
      });
      const { at } = await first;
      const { frame } = await created;
      if (frame.type === 'message.created') {
        chatId = frame.chatId;
        await probe.wait((f) => f.type === 'message.done' && f.messageId === frame.message.messageId);
        if (cpuBefore) {
          const cpuAfter = await stats(server.child);
          sendCpuMicros +=
            cpuAfter.cpu.user + cpuAfter.cpu.system - cpuBefore.cpu.user - cpuBefore.cpu.system;
        }
        if (!warm) {
          serverTtft.push(at - t0);
          serverLatency.push(...(probe.tokens.get(frame.message.messageId) ?? []).map((d) => d.at - d.stamp));
        }
      }
    }
    probe.ws.close();

    // 2. Many concurrent streams: a socket per user, all streaming at once.
    const before = await settledStats(server.child);
    const sockets: BenchSocket[] = [];
    for (let i = 0; i < streams; i += 100) {
      sockets.push(
        ...(await Promise.all(
          tokens.slice(i, Math.min(i + 100, streams)).map((t) => BenchSocket.open(wsUrl, t)),
        )),
      );
    }
    const connected = await settledStats(server.child);
    // What the connections hold: the JavaScript heap and the buffers outside it. The difference of
    // RSS is not attributable: the allocator hands back pages of earlier work while the sockets
    // open, and it came out negative however long the baseline settled. RSS is reported whole.
    const memoryPerConnectionKiB =
      (connected.heapUsed + connected.external - before.heapUsed - before.external) / 1024 / streams;
    const heapPerConnectionKiB = (connected.heapUsed - before.heapUsed) / 1024 / streams;
    const rssWithSocketsMiB = connected.rss / 1024 / 1024;

    const started = epochNow();
    const cpu0 = await stats(server.child);
    // Sends are paced (BENCH_SEND_RATE a second): the bench measures streaming, and a thousand
    // chats opened in the same millisecond would measure the database instead.
    const finished = sockets.map(async (s, i) => {
      await new Promise((r) => setTimeout(r, (i / sendRate) * 1000));
      const created = s.wait(
        (f) => f.type === 'message.created' && f.requestId === `c${i}` && f.message.role === 'assistant',
        180_000,
      );
      const failed = s.wait((f) => f.type === 'error', 180_000);
      s.send({
        type: 'chat.send',
        requestId: `c${i}`,
        chatId: null,
        content: 'Stream please',
        params: { model: model(tokensPerStream, tokenIntervalMs) },
      });
      return Promise.race([
        created.then(({ frame }) =>
          frame.type === 'message.created'
            ? s
                .wait((f) => f.type === 'message.done' && f.messageId === frame.message.messageId, 300_000)
                .then(() => true)
            : false,
        ),
        failed.then(() => false),
      ]).catch(() => false);
    });
    const results = await Promise.all(finished);
    const cpu1 = await stats(server.child);
    const wallSeconds = (epochNow() - started) / 1000;
    const cpuMicros = cpu1.cpu.user + cpu1.cpu.system - (cpu0.cpu.user + cpu0.cpu.system);
    const cpuPercent = (cpuMicros / 1000 / (cpu1.at - cpu0.at)) * 100;
    const series = sockets.flatMap((s) => [...s.tokens.values()]).filter((x) => x.length > 0);
    const window = steadyWindow(series);
    const late = tokenLateness(series, window);
    const lateAll = tokenLateness(series);
    const rampSeconds = (max(series.map((x) => (x[0] as { at: number }).at)) - started) / 1000;
    const latencies = series.flat().map((d) => d.at - d.stamp);
    for (const s of sockets) s.ws.close();

    // 3. The same concurrency straight from the fixture: what this client and the network add alone.
    const directSeries = await Promise.all(
      Array.from({ length: streams }, () =>
        directStream(fixturePort, `stamp-${tokensPerStream}x${tokenIntervalMs}`),
      ),
    );
    const directLate = tokenLateness(directSeries, steadyWindow(directSeries));

    const dP50 = pct(directTtft, 50);
    const sP50 = pct(serverTtft, 50);
    const budgets = { addedTtftP50Ms: 10, p99TokenLatenessMs: 50 };
    const completed = results.filter(Boolean).length;
    const result: StreamBenchResult = {
      config: {
        streams,
        tokensPerStream,
        tokenIntervalMs,
        sendRate,
        ttftSamples,
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
      },
      ttft: {
        directP50Ms: round(dP50),
        serverP50Ms: round(sP50),
        addedP50Ms: round(sP50 - dP50),
        ratio: round(sP50 / dP50),
        serverP99Ms: round(pct(serverTtft, 99)),
        serverCpuMsPerSend: round(sendCpuMicros / 1000 / ttftSamples),
      },
      perToken: {
        directP50LatencyMs: round(pct(directLatency, 50)),
        serverP50LatencyMs: round(pct(serverLatency, 50)),
        addedP50Ms: round(pct(serverLatency, 50) - pct(directLatency, 50)),
      },
      concurrent: {
        streams,
        completed,
        failed: streams - completed,
        serverCpuPercentOfOneCore: round(cpuPercent),
        memoryPerConnectionKiB: round(memoryPerConnectionKiB),
        rssWithSocketsMiB: round(rssWithSocketsMiB),
        heapPerConnectionKiB: round(heapPerConnectionKiB),
        tokenLatenessMs: {
          p50: round(pct(late, 50)),
          p99: round(pct(late, 99)),
          max: round(max(late)),
          samples: late.length,
        },
        tokenLatenessAllMs: {
          p50: round(pct(lateAll, 50)),
          p99: round(pct(lateAll, 99)),
          max: round(max(lateAll)),
        },
        rampSeconds: round(rampSeconds),
        steadyWindowSeconds: round(Math.max(0, window.to - window.from) / 1000),
        tokenLatencyMs: { p50: round(pct(latencies, 50)), p99: round(pct(latencies, 99)) },
        directTokenLatenessMs: {
          p50: round(pct(directLate, 50)),
          p99: round(pct(directLate, 99)),
          max: round(max(directLate)),
        },
        serverMainThread: {
          loopDelayP99Ms: round(cpu1.loop.p99Ms),
          loopDelayMaxMs: round(cpu1.loop.maxMs),
          gcPauseMaxMs: round(cpu1.loop.gcMaxMs),
          gcTotalMs: round(cpu1.loop.gcTotalMs),
        },
        wallSeconds: round(wallSeconds),
      },
      budgets,
      ok: {
        addedTtftP50: sP50 - dP50 <= budgets.addedTtftP50Ms,
        p99TokenLateness: late.length > 0 && pct(late, 99) <= budgets.p99TokenLatenessMs,
        allStreamsCompleted: completed === streams,
      },
      machine: { loadAverage: os.loadavg().map(round), cpus: os.cpus().length },
    };
    return result;
  } finally {
    server.child.kill('SIGTERM');
    fixture.child.kill('SIGTERM');
  }
}

// `node --import tsx bench/stream.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchStreaming();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
