// The streaming bench's load generator: the sockets (or the direct fixture streams) of a thousand
// people, in a process of its own, so its work is not the server's and its own lateness can be told
// apart. Started by bench/stream.ts, driven over IPC; also the socket the other benches reuse.
import { request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ServerFrame } from '@assistente/contracts';
import WebSocket from 'ws';
import { epochNow, readStamps } from '../apps/server/src/test/llm-fixture.ts';
import { percentile } from './rounds.ts';

type Token = { at: number; stamp: number };

/** An authenticated socket collecting, per answer, the arrival time and stamp of each delta. */
export class BenchSocket {
  readonly ws: WebSocket;
  readonly tokens = new Map<string, Token[]>();
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

/**
 * One SSE stream straight from the fixture: arrival time and stamp of every chunk. Plain node:http
 * rather than fetch: a thousand of these at once cost fetch's web streams more CPU than the server's
 * own work, and the generator became what was measured.
 */
export function directStream(fixturePort: number, model: string): Promise<Token[]> {
  return new Promise((resolve, reject) => {
    const out: Token[] = [];
    const req = request(
      {
        host: '127.0.0.1',
        port: fixturePort,
        path: '/v1/chat/completions',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        agent: false,
      },
      (res) => {
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const at = epochNow();
          buffer += chunk;
          let i = buffer.indexOf('\n\n');
          while (i >= 0) {
            for (const stamp of readStamps(buffer.slice(0, i))) out.push({ at, stamp });
            buffer = buffer.slice(i + 2);
            i = buffer.indexOf('\n\n');
          }
        });
        res.on('end', () => resolve(out));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'bench' }] }));
  });
}

const max = (xs: number[]) => xs.reduce((a, b) => (b > a ? b : a), Number.NEGATIVE_INFINITY);
const min = (xs: number[]) => xs.reduce((a, b) => (b < a ? b : a), Number.POSITIVE_INFINITY);

/** Steady state: after the last stream's first token was written, before the first one ended. */
export function steadyWindow(series: Token[][]): { from: number; to: number } {
  return {
    from: max(series.map((x) => (x[0] as Token).stamp)),
    to: min(series.map((x) => (x.at(-1) as Token).stamp)),
  };
}

/**
 * How late each token arrives: its delay (arrival − the fixture's write) over the quickest of its
 * stream, whose delay is what the network and this client cost at best. Never negative, unlike a
 * gap's change (a token after a late one arrives sooner than its gap). With a window, only tokens
 * written inside it count.
 */
export function tokenLateness(series: Token[][], window?: { from: number; to: number }): number[] {
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

export interface Quantiles {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}
const quantiles = (xs: number[]): Quantiles => ({
  p50: percentile(xs, 50),
  p99: percentile(xs, 99),
  max: xs.length ? max(xs) : Number.NaN,
  samples: xs.length,
});

/** What the generator spent of one core and how late its own event loop ran, over a phase. */
export interface GeneratorLoad {
  cpuPercentOfOneCore: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** A phase's figures, as the generator sends them back. */
export interface StreamsOutcome {
  streams: number;
  completed: number;
  /** Tokens in the steady window (every stream started, none ended). */
  lateness: Quantiles;
  /** Every token, start-up burst included. */
  latenessAll: Quantiles;
  latency: Quantiles;
  rampSeconds: number;
  steadyWindowSeconds: number;
  wallSeconds: number;
  errors: string[];
  generator: GeneratorLoad;
}

export type GeneratorCommand =
  | { op: 'open'; wsUrl: string; tokens: string[] }
  | { op: 'streams'; model: string; sendRate: number }
  | { op: 'direct'; fixturePort: number; model: string; streams: number; sendRate: number }
  | { op: 'close' };

function outcome(series: Token[][], streams: number, completed: number, t0: number, errors: string[]) {
  const live = series.filter((x) => x.length > 0);
  const window = live.length ? steadyWindow(live) : { from: 0, to: 0 };
  return {
    streams,
    completed,
    lateness: quantiles(tokenLateness(live, window)),
    latenessAll: quantiles(tokenLateness(live)),
    latency: quantiles(live.flat().map((d) => d.at - d.stamp)),
    rampSeconds: live.length ? (max(live.map((x) => (x[0] as Token).at)) - t0) / 1000 : Number.NaN,
    steadyWindowSeconds: Math.max(0, window.to - window.from) / 1000,
    wallSeconds: (epochNow() - t0) / 1000,
    errors: errors.slice(0, 5),
  };
}

/** Runs `work` while measuring this process's CPU and event-loop delay. */
async function measured<T>(work: () => Promise<T>): Promise<T & { generator: GeneratorLoad }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const cpu = process.cpuUsage(cpu0);
  loop.disable();
  return {
    ...result,
    generator: {
      cpuPercentOfOneCore: ((cpu.user + cpu.system) / 1000 / (performance.now() - t0)) * 100,
      loopDelayP99Ms: loop.percentile(99) / 1e6,
      loopDelayMaxMs: loop.max / 1e6,
    },
  };
}

const paced = (i: number, perSecond: number) => new Promise((r) => setTimeout(r, (i / perSecond) * 1000));

let sockets: BenchSocket[] = [];
let round = 0;

async function handle(cmd: GeneratorCommand): Promise<unknown> {
  if (cmd.op === 'open') {
    for (let i = 0; i < cmd.tokens.length; i += 100)
      sockets.push(
        ...(await Promise.all(cmd.tokens.slice(i, i + 100).map((t) => BenchSocket.open(cmd.wsUrl, t)))),
      );
    return { open: sockets.length };
  }
  if (cmd.op === 'close') {
    for (const s of sockets) s.ws.close();
    sockets = [];
    return { closed: true };
  }
  if (cmd.op === 'direct') {
    return measured(async () => {
      const t0 = epochNow();
      const errors: string[] = [];
      const series = await Promise.all(
        Array.from({ length: cmd.streams }, async (_, i) => {
          await paced(i, cmd.sendRate);
          return directStream(cmd.fixturePort, cmd.model).catch((err: unknown) => {
            errors.push(String(err));
            return [] as Token[];
          });
        }),
      );
      return outcome(series, cmd.streams, series.filter((s) => s.length > 0).length, t0, errors);
    });
  }
  round++;
  return measured(async () => {
    const t0 = epochNow();
    const ids = await Promise.all(
      sockets.map(async (s, i): Promise<string | null> => {
        await paced(i, cmd.sendRate);
        const requestId = `r${round}-${i}`;
        const created = s.wait(
          (f) => f.type === 'message.created' && f.requestId === requestId && f.message.role === 'assistant',
          180_000,
        );
        const failed = s.wait((f) => f.type === 'error', 180_000);
        s.send({
          type: 'chat.send',
          requestId,
          chatId: null,
          content: 'Stream please',
          params: { model: cmd.model },
        });
        const messageId = await Promise.race([
          created.then(({ frame }) => (frame.type === 'message.created' ? frame.message.messageId : null)),
          failed.then(() => null),
        ]).catch(() => null);
        if (!messageId) return null;
        const done = await s
          .wait((f) => f.type === 'message.done' && f.messageId === messageId, 300_000)
          .then(
            () => true,
            () => false,
          );
        return done && !s.errors.length ? messageId : null;
      }),
    );
    const series = sockets.map((s, i) => s.tokens.get(ids[i] ?? '') ?? []);
    const errors = sockets.flatMap((s) => s.errors);
    for (const s of sockets) {
      s.tokens.clear();
      s.errors.length = 0;
    }
    return outcome(series, sockets.length, ids.filter(Boolean).length, t0, errors);
  });
}

if (process.send && import.meta.url === `file://${process.argv[1]}`) {
  process.on('message', (cmd: GeneratorCommand) => {
    void handle(cmd).then(
      (r) => process.send?.({ ok: r }),
      (err: unknown) => process.send?.({ error: String((err as Error)?.stack ?? err) }),
    );
  });
  process.stdout.write(`${JSON.stringify({ pid: process.pid })}\n`);
}
