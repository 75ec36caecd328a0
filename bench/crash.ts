// Crash bench (issue 15): the text a reader saw that a `kill -9` mid-stream loses, with 200 answers
// streaming on the embedded database — the fault suite's scenario (apps/server/src/test/stream-crash.ts).
import { lossSummary, runStreamCrash } from '../apps/server/src/test/stream-crash.ts';

export interface CrashBenchResult {
  streams: number;
  tokenMs: number;
  /** Stream time a reader saw that the store lacks after the restart, over the answers. */
  lossMs: { p50: number; max: number };
  finalisedAfterMs: number;
  problems: string[];
  budget: { maxLossMs: number; ok: boolean };
}

export async function benchCrash(): Promise<CrashBenchResult> {
  const r = await runStreamCrash({ streams: Number(process.env.BENCH_CRASH_STREAMS ?? 200) });
  const { p50Ms, maxMs } = lossSummary(r);
  const maxLossMs = 250;
  return {
    streams: r.streams,
    tokenMs: r.tokenMs,
    lossMs: { p50: p50Ms, max: maxMs },
    finalisedAfterMs: r.finalisedAfterMs,
    problems: r.problems,
    budget: { maxLossMs, ok: maxMs <= maxLossMs && r.problems.length === 0 },
  };
}

// `node --import tsx bench/crash.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await benchCrash(), null, 2)}\n`);
  process.exit(0);
}
