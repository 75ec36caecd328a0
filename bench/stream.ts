// Streaming bench (issue 4, issue 30): what the agents websocket adds on top of talking to the model
// fixture directly. The fixture, the server (compiled) and the load generator (bench/stream-clients.ts)
// each run in their own process; this one only conducts. Every chunk the fixture writes carries the
// moment it was written, so the delay each token picks up is measured per token, at the client.
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { epochNow } from '../apps/server/src/test/llm-fixture.ts';
import { type Stats, startChild, stats } from './child.ts';
import { describeSpread, percentile, ROUNDS, type Spread, spread, verdict } from './rounds.ts';
import {
  BenchSocket,
  directStream,
  type GeneratorCommand,
  type GeneratorLoad,
  type StreamsOutcome,
} from './stream-clients.ts';

/** The generator is not the bottleneck while it uses less of a core than this and its loop keeps up. */
const GENERATOR_MAX_CPU_PERCENT = 85;
const GENERATOR_MAX_LOOP_P99_MS = 20;
/** The pause before each first-token sample through the server. */
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 100);

export interface StreamBenchResult {
  config: {
    streams: number;
    tokensPerStream: number;
    tokenIntervalMs: number;
    /** chat.send frames a second while the streams start. */
    sendRate: number;
    rounds: number;
    ttftSamplesPerRound: number;
    database: 'pglite' | 'postgres';
  };
  /** One answer at a time, by someone a budget covers, to a santito with tools: through the server vs direct. */
  ttft: {
    directP50Ms: Spread;
    serverP50Ms: Spread;
    addedP50Ms: Spread;
    /** Server CPU time per chat.send (all its work, answer included): a figure the machine's load hardly moves. */
    serverCpuMsPerSend: number;
  };
  concurrent: {
    streams: number;
    /** Per round: every stream through the server, then the same straight from the fixture. */
    serverLatenessP99Ms: Spread;
    directLatenessP99Ms: Spread;
    /** The server's share: through-the-server p99 − direct p99, per round. */
    addedLatenessP99Ms: Spread;
    serverLatenessP50Ms: Spread;
    failed: number;
    serverCpuPercentOfOneCore: Spread;
    generator: { cpuPercentOfOneCore: Spread; loopDelayP99Ms: Spread; saturatedRounds: number };
    rampSeconds: Spread;
    steadyWindowSeconds: Spread;
    /** Heap and external buffers per open socket, after collection. */
    memoryPerConnectionKiB: number;
    /** The server's whole resident memory with every socket open. */
    rssWithSocketsMiB: number;
    serverMainThread: { loopDelayP99Ms: Spread; gcPauseMaxMs: Spread };
    errors: string[];
  };
  budgets: {
    addedTtftP50Ms: number;
    addedLatenessP99Ms: number;
    maxServerCpuPercent: number;
  };
  ok: {
    addedTtftP50: boolean;
    addedLatenessP99: boolean;
    serverCpu: boolean;
    allStreamsCompleted: boolean;
    generatorNotSaturated: boolean;
  };
  /** 1/5/15-minute load averages at the end and the CPU count: a busy machine inflates every delay here. */
  machine: { loadAverage: number[]; cpus: number };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

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

/** Sends the generator one command and waits for its answer. */
function command<T>(generator: ChildProcess, cmd: GeneratorCommand): Promise<T> {
  return new Promise((resolve, reject) => {
    generator.once('message', (m) => {
      const msg = m as { ok?: T; error?: string };
      if (msg.error) reject(new Error(`load generator: ${msg.error}`));
      else resolve(msg.ok as T);
    });
    generator.send(cmd);
  });
}

/** Sends the server an operation and waits for the message saying it is done. */
function ask(child: ChildProcess, op: object, done: string): Promise<void> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if ((m as { op?: string }).op !== done) return;
      child.off('message', on);
      resolve();
    };
    child.on('message', on);
    child.send(op);
  });
}

const saturated = (g: GeneratorLoad) =>
  g.cpuPercentOfOneCore > GENERATOR_MAX_CPU_PERCENT || g.loopDelayP99Ms > GENERATOR_MAX_LOOP_P99_MS;

export async function benchStreaming(): Promise<StreamBenchResult> {
  const streams = Number(process.env.BENCH_STREAMS ?? 1000);
  const tokensPerStream = Number(process.env.BENCH_STREAM_TOKENS ?? 200);
  const sendRate = Number(process.env.BENCH_SEND_RATE ?? 100);
  const tokenIntervalMs = Number(process.env.BENCH_TOKEN_MS ?? 100);
  const ttftSamples = Number(process.env.BENCH_TTFT_SAMPLES ?? 10);
  const rounds = Number(process.env.BENCH_STREAM_ROUNDS ?? ROUNDS);

  const children: ChildProcess[] = [];
  try {
    const fixture = await startChild('bench/stream-fixture.ts', {});
    children.push(fixture.child);
    const fixturePort = fixture.info.port as number;
    const server = await startChild(
      'bench/stream-server.ts',
      { FIXTURE_PORT: String(fixturePort), BENCH_USERS: String(streams) },
      true,
    );
    children.push(server.child);
    const generator = await startChild('bench/stream-clients.ts', {}, true);
    children.push(generator.child);
    const { port, providerId, tokens, toolsAgentId } = server.info as {
      port: number;
      providerId: string;
      tokens: string[];
      toolsAgentId: string;
    };
    const wsUrl = `ws://127.0.0.1:${port}/api/v1/agents/chat/`;
    const model = (n: number, ms: number) => `${providerId}:stamp-${n}x${ms}`;

    // 1. Time to first token, one answer at a time, direct and through the server alternately so
    //    drift in the machine's load hits both alike. The first user is covered by a budget and asks
    //    a santito with tools: admission and the tools offered are in the path.
    const probe = await BenchSocket.open(wsUrl, tokens[0] as string);
    // BENCH_PROFILE_TTFT=<file>: the server's main thread profiled over this phase only.
    const profile = process.env.BENCH_PROFILE_TTFT;
    if (profile) await ask(server.child, { op: 'profile:start' }, 'profile:started');
    const direct: number[][] = [];
    const through: number[][] = [];
    let chatId: string | null = null;
    let sendCpuMicros = 0;
    let cpuSamples = 0;
    for (let r = -1; r < rounds; r++) {
      const d: number[] = [];
      const s: number[] = [];
      for (let i = 0; i < (r < 0 ? 3 : ttftSamples); i++) {
        let t0 = epochNow();
        const first = (await directStream(fixturePort, 'stamp-10x5'))[0];
        if (first) d.push(first.at - t0);
        // A person reads an answer before asking again: the previous answer's own bookkeeping (its
        // last write, its ledger row) is done by then, and is not this answer's first token.
        await new Promise((resolve) => setTimeout(resolve, THINK_MS));
        const requestId = `ttft-${r}-${i}`;
        const cpuBefore = await stats(server.child);
        const token = probe.wait((f) => f.type === 'message.delta');
        const created = probe.wait(
          (f) => f.type === 'message.created' && f.requestId === requestId && f.message.role === 'assistant',
        );
        t0 = epochNow();
        // The first sample opens a chat; the others continue it, as a conversation does.
        probe.send({
          type: 'chat.send',
          requestId,
          chatId,
          ...(chatId ? {} : { agentId: toolsAgentId }),
          content: `Question ${r} ${i}`,
          params: { model: model(10, 5) },
        });
        const { at } = await token;
        const { frame } = await created;
        if (frame.type !== 'message.created') continue;
        chatId = frame.chatId;
        await probe.wait((f) => f.type === 'message.done' && f.messageId === frame.message.messageId);
        const cpuAfter = await stats(server.child);
        if (r >= 0) {
          sendCpuMicros +=
            cpuAfter.cpu.user + cpuAfter.cpu.system - cpuBefore.cpu.user - cpuBefore.cpu.system;
          cpuSamples++;
        }
        s.push(at - t0);
      }
      if (r >= 0) {
        direct.push(d);
        through.push(s);
      }
    }
    if (profile) await ask(server.child, { op: 'profile:stop', file: profile }, 'profile:stopped');
    if (probe.errors.length) throw new Error(`the first-token probe failed: ${probe.errors.join('; ')}`);
    probe.ws.close();

    // 2. A socket per person, all streaming at once; then as many streams straight from the fixture,
    //    through the same generator: what it and the network cost alone. Alternated per round.
    const before = await settledStats(server.child);
    await command(generator.child, { op: 'open', wsUrl, tokens: tokens.slice(0, streams) });
    const connected = await settledStats(server.child);
    const memoryPerConnectionKiB =
      (connected.heapUsed + connected.external - before.heapUsed - before.external) / 1024 / streams;
    const throughRounds: StreamsOutcome[] = [];
    const directRounds: StreamsOutcome[] = [];
    const serverCpu: number[] = [];
    const serverLoop: Stats['loop'][] = [];
    for (let r = 0; r < rounds; r++) {
      const cpu0 = await stats(server.child);
      throughRounds.push(
        await command(generator.child, {
          op: 'streams',
          model: model(tokensPerStream, tokenIntervalMs),
          sendRate,
        }),
      );
      const cpu1 = await stats(server.child);
      serverCpu.push(
        ((cpu1.cpu.user + cpu1.cpu.system - cpu0.cpu.user - cpu0.cpu.system) / 1000 / (cpu1.at - cpu0.at)) *
          100,
      );
      serverLoop.push(cpu1.loop);
      directRounds.push(
        await command(generator.child, {
          op: 'direct',
          fixturePort,
          model: `stamp-${tokensPerStream}x${tokenIntervalMs}`,
          streams,
          sendRate,
        }),
      );
    }
    await command(generator.child, { op: 'close' });

    const ttftDirect = direct.map((d) => percentile(d, 50));
    const ttftThrough = through.map((s) => percentile(s, 50));
    const addedTtft = spread(ttftThrough.map((s, i) => s - (ttftDirect[i] as number)));
    const added = spread(
      throughRounds.map((t, i) => t.lateness.p99 - (directRounds[i] as StreamsOutcome).lateness.p99),
    );
    const allRounds = [...throughRounds, ...directRounds];
    const saturatedRounds = allRounds.filter((o) => saturated(o.generator)).length;
    const failed = throughRounds.reduce((n, t) => n + (t.streams - t.completed), 0);
    const cpu = spread(serverCpu);
    const budgets = { addedTtftP50Ms: 5, addedLatenessP99Ms: 25, maxServerCpuPercent: 80 };
    return {
      config: {
        streams,
        tokensPerStream,
        tokenIntervalMs,
        sendRate,
        rounds,
        ttftSamplesPerRound: ttftSamples,
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
      },
      ttft: {
        directP50Ms: spread(ttftDirect),
        serverP50Ms: spread(ttftThrough),
        addedP50Ms: addedTtft,
        serverCpuMsPerSend: round2(sendCpuMicros / 1000 / Math.max(1, cpuSamples)),
      },
      concurrent: {
        streams,
        serverLatenessP99Ms: spread(throughRounds.map((t) => t.lateness.p99)),
        directLatenessP99Ms: spread(directRounds.map((t) => t.lateness.p99)),
        addedLatenessP99Ms: added,
        serverLatenessP50Ms: spread(throughRounds.map((t) => t.lateness.p50)),
        failed,
        serverCpuPercentOfOneCore: cpu,
        generator: {
          cpuPercentOfOneCore: spread(allRounds.map((o) => o.generator.cpuPercentOfOneCore)),
          loopDelayP99Ms: spread(allRounds.map((o) => o.generator.loopDelayP99Ms)),
          saturatedRounds,
        },
        rampSeconds: spread(throughRounds.map((t) => t.rampSeconds)),
        steadyWindowSeconds: spread(throughRounds.map((t) => t.steadyWindowSeconds)),
        memoryPerConnectionKiB: round2(memoryPerConnectionKiB),
        rssWithSocketsMiB: round2(connected.rss / 1024 / 1024),
        serverMainThread: {
          loopDelayP99Ms: spread(serverLoop.map((l) => l.p99Ms)),
          gcPauseMaxMs: spread(serverLoop.map((l) => l.gcMaxMs)),
        },
        errors: allRounds.flatMap((o) => o.errors).slice(0, 5),
      },
      budgets,
      ok: {
        addedTtftP50: addedTtft.median <= budgets.addedTtftP50Ms,
        addedLatenessP99: added.median <= budgets.addedLatenessP99Ms,
        serverCpu: cpu.median <= budgets.maxServerCpuPercent,
        allStreamsCompleted: failed === 0,
        generatorNotSaturated: saturatedRounds === 0,
      },
      machine: { loadAverage: os.loadavg().map(round2), cpus: os.cpus().length },
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
  }
}

export function describeStreaming(r: StreamBenchResult): string[] {
  const { ttft, concurrent: c, budgets, ok } = r;
  const generator = ok.generatorNotSaturated
    ? ''
    : ` — REFUSED: the load generator was saturated in ${c.generator.saturatedRounds} rounds (over ${GENERATOR_MAX_CPU_PERCENT} % of a core or its loop p99 over ${GENERATOR_MAX_LOOP_P99_MS} ms), so the figure measures it, not the server`;
  return [
    `Streaming, time to first token (budgeted person, santito with tools): direct p50 ${describeSpread(ttft.directP50Ms, ' ms')}, through the server ${describeSpread(ttft.serverP50Ms, ' ms')}; added ${describeSpread(ttft.addedP50Ms, ' ms')} (budget ≤ ${budgets.addedTtftP50Ms} ms) ${verdict(ok.addedTtftP50)}; server CPU ${ttft.serverCpuMsPerSend} ms a send`,
    `Streaming, ${c.streams} concurrent sockets × ${r.config.rounds} rounds: ${c.failed} failed; token lateness p99 through the server ${describeSpread(c.serverLatenessP99Ms, ' ms')}, direct ${describeSpread(c.directLatenessP99Ms, ' ms')}, added by the server ${describeSpread(c.addedLatenessP99Ms, ' ms')} (budget ≤ ${budgets.addedLatenessP99Ms} ms) ${verdict(ok.addedLatenessP99 && ok.allStreamsCompleted && ok.generatorNotSaturated)}; server CPU ${describeSpread(c.serverCpuPercentOfOneCore, ' %', 0)} of one core (budget ≤ ${budgets.maxServerCpuPercent} %) ${verdict(ok.serverCpu)}; load generator ${describeSpread(c.generator.cpuPercentOfOneCore, ' %', 0)} of a core, its loop p99 ${describeSpread(c.generator.loopDelayP99Ms, ' ms')}${generator}; ${c.memoryPerConnectionKiB} KiB heap and buffers per connection, ${c.rssWithSocketsMiB} MiB RSS with all open`,
  ];
}

export const streamingOk = (r: StreamBenchResult) => Object.values(r.ok).every(Boolean);

// `node --import tsx bench/stream.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchStreaming();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  for (const line of describeStreaming(result)) console.log(line);
  process.exit(0);
}
