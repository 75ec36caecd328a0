// Retention bench (docs/ARCHITECTURE.md#retention): the daily run deleting 1,000,000 old messages
// while 200 answers stream, on the streaming bench's server and model fixture (each in its own
// process; this process is the clients). Rounds interleave a window without retention and one the
// same length with it, so drift in machine load hits both alike. Budget: what the run adds to the
// p99 of the tokens' lateness (each token's delay over its stream's quickest, as in the streaming
// bench) ≤ 10 ms, the median over the rounds.
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { epochNow } from '../apps/server/src/test/llm-fixture.ts';
import { startChild } from './child.ts';
import { BenchSocket } from './stream-clients.ts';

export interface RetentionBenchResult {
  config: {
    streams: number;
    rounds: number;
    messages: number;
    perChat: number;
    tokenIntervalMs: number;
    database: 'pglite' | 'postgres';
  };
  rounds: Array<{
    seedMs: number;
    runMs: number;
    deleted: Record<string, number>;
    baselineP99Ms: number;
    retentionP99Ms: number;
    addedP99Ms: number;
  }>;
  /** Messages the runs deleted a second. */
  messagesPerSecond: number;
  /** Seeded messages still there after the runs: must be 0. */
  leftAfterRuns: number;
  addedP99Ms: { median: number };
  budget: { maxAddedP99Ms: number; ok: boolean };
  machine: { loadAverage: number[]; cpus: number };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
/** The quiet windows a round's baseline reads, before its seeding and after its run (at least). */
const BASELINE_MS = 20_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const p99 = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
};

/** Sends `msg` to the server and waits for its answer `reply`. */
function ask<T>(child: ChildProcess, msg: object, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if ((m as { op?: string })?.op !== reply) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    child.send(msg);
  });
}

/** Lateness of the tokens written within [from, to]: delay over the stream's quickest. */
function lateness(sockets: BenchSocket[], from: number, to: number): number[] {
  const out: number[] = [];
  for (const s of sockets) {
    for (const series of s.tokens.values()) {
      let quickest = Number.POSITIVE_INFINITY;
      for (const t of series) quickest = Math.min(quickest, t.at - t.stamp);
      for (const t of series) if (t.stamp >= from && t.stamp <= to) out.push(t.at - t.stamp - quickest);
    }
  }
  return out;
}

export async function benchRetention(): Promise<RetentionBenchResult> {
  const streams = Number(process.env.BENCH_RETENTION_STREAMS ?? 200);
  const rounds = Number(process.env.BENCH_RETENTION_ROUNDS ?? 4);
  const messages = Number(process.env.BENCH_RETENTION_MESSAGES ?? 1_000_000);
  const perChat = 100;
  const tokenIntervalMs = Number(process.env.BENCH_TOKEN_MS ?? 100);
  const sendRate = Number(process.env.BENCH_SEND_RATE ?? 100);

  const fixture = await startChild('bench/stream-fixture.ts', {});
  const server = await startChild(
    'bench/stream-server.ts',
    { FIXTURE_PORT: String(fixture.info.port), BENCH_USERS: String(streams) },
    true,
  );
  const { port, providerId, tokens } = server.info as { port: number; providerId: string; tokens: string[] };
  try {
    const wsUrl = `ws://127.0.0.1:${port}/api/v1/agents/chat/`;
    const sockets: BenchSocket[] = [];
    for (let i = 0; i < streams; i += 100) {
      sockets.push(
        ...(await Promise.all(
          tokens.slice(i, Math.min(i + 100, streams)).map((t) => BenchSocket.open(wsUrl, t)),
        )),
      );
    }
    // Answers far longer than the bench (30 minutes of tokens): every one streams throughout.
    await Promise.all(
      sockets.map(async (s, i) => {
        await new Promise((r) => setTimeout(r, (i / sendRate) * 1000));
        const delta = s.wait((f) => f.type === 'message.delta', 180_000);
        s.send({
          type: 'chat.send',
          requestId: `r${i}`,
          chatId: null,
          content: 'Stream please',
          params: { model: `${providerId}:stamp-18000x${tokenIntervalMs}` },
        });
        await delta;
      }),
    );
    // Past the streams' start-up, so the first round's window before it is a quiet one.
    await new Promise((r) => setTimeout(r, BASELINE_MS + 2_000));

    const results: RetentionBenchResult['rounds'] = [];
    let left = 0;
    let deletedMessages = 0;
    let runSeconds = 0;
    for (let r = 0; r < rounds; r++) {
      const share = Math.floor(messages / rounds);
      // Quiet before the seeding, and quiet after the run: the baseline is both windows (the
      // streams' own lateness drifts over minutes, which one side alone would count for or
      // against the run).
      const beforeTo = epochNow();
      const beforeFrom = beforeTo - BASELINE_MS;
      const seeded = await ask<{ ms: number }>(
        server.child,
        { op: 'retention:seed', round: r, messages: share, perChat },
        'retention:seeded',
      );
      // Let the streams settle after the seeding's big statements.
      await new Promise((res) => setTimeout(res, 2_000));
      const start = epochNow();
      const ran = await ask<{ ms: number; counts?: Record<string, number>; left?: number; error?: string }>(
        server.child,
        { op: 'retention:run' },
        'retention:ran',
      );
      if (ran.error) throw new Error(`the retention run failed: ${ran.error}`);
      const end = epochNow();
      left += ran.left ?? 0;
      // As long again without retention, right after (tokens of it arrive within a second).
      const quietFrom = end + 1_000;
      const quietTo = quietFrom + Math.max(BASELINE_MS, end - start);
      await new Promise((res) => setTimeout(res, quietTo - epochNow() + 1_500));
      const withRun = p99(lateness(sockets, start, end));
      const without = p99([
        ...lateness(sockets, beforeFrom, beforeTo),
        ...lateness(sockets, quietFrom, quietTo),
      ]);
      deletedMessages += ran.counts?.messages ?? 0;
      runSeconds += ran.ms / 1000;
      results.push({
        seedMs: Math.round(seeded.ms),
        runMs: Math.round(ran.ms),
        deleted: ran.counts ?? {},
        baselineP99Ms: round2(without),
        retentionP99Ms: round2(withRun),
        addedP99Ms: round2(withRun - without),
      });
    }
    for (const s of sockets) s.ws.close();
    const added = median(results.map((r) => r.addedP99Ms));
    const failed = sockets.flatMap((s) => s.errors);
    if (failed.length > 0) throw new Error(`streams failed: ${failed.slice(0, 3).join('; ')}`);
    return {
      config: {
        streams,
        rounds,
        messages,
        perChat,
        tokenIntervalMs,
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
      },
      rounds: results,
      messagesPerSecond: Math.round(deletedMessages / Math.max(runSeconds, 0.001)),
      leftAfterRuns: left,
      addedP99Ms: { median: added },
      budget: {
        maxAddedP99Ms: 10,
        ok: added <= 10 && left === 0,
      },
      machine: { loadAverage: os.loadavg().map(round2), cpus: os.cpus().length },
    };
  } finally {
    server.child.kill('SIGTERM');
    fixture.child.kill('SIGTERM');
  }
}

export const describeRetention = (r: RetentionBenchResult): string =>
  `Retention deleting ${r.config.messages.toLocaleString('en')} old messages over ${r.config.rounds} rounds while ${r.config.streams} answers stream: token lateness p99 added by the run median ${r.addedP99Ms.median} ms (budget ≤ ${r.budget.maxAddedP99Ms} ms; per round ${r.rounds.map((x) => `${x.retentionP99Ms}−${x.baselineP99Ms}`).join(', ')} ms); ${r.messagesPerSecond.toLocaleString('en')} messages deleted a second, ${r.leftAfterRuns} left (runs ${r.rounds.map((x) => (x.runMs / 1000).toFixed(1)).join(', ')} s) ${r.budget.ok ? 'OK' : 'OVER BUDGET'}`;

// `node --import tsx bench/retention.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchRetention();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${describeRetention(result)}\n`);
  process.exit(result.budget.ok ? 0 : 1);
}
