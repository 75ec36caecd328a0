// Cold start and idle memory of the production server (compiled, as `npm start` runs it), against
// absolute bars (issue 30): to /healthz within 1.5 s on an existing data dir, and at most 250 MiB
// resident once idle. The same sources run through the TypeScript loader are measured beside it, for
// information only.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnServerProcess } from '../apps/server/src/test/server-process.ts';
import { describeSpread, type Spread, spread, verdict } from './rounds.ts';

const RUNS = Math.max(5, Number(process.env.BENCH_START_RUNS ?? 5));
/** How long a started server is left alone before its memory is read. */
const SETTLE_MS = 3_000;
/** The bars: compiled start to a 200 from /healthz, and resident memory once idle. */
const MAX_TO_HEALTHZ_MS = 1_500;
const MAX_IDLE_RSS_MIB = 250;
/**
 * A first start creates and migrates the database, whose WebAssembly memory never shrinks: it held
 * ≈ 850 MiB at idle until the database was reopened afterwards on a fresh thread (db/client.ts).
 */
const MAX_FIRST_START_RSS_MIB = 450;

/** Resident memory of a process, from /proc (every thread of the process included). */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

interface StartSample {
  toHealthzMs: number;
  idleRssMiB: number;
}

async function startOnce(run: 'compiled' | 'source', dataDir: string): Promise<StartSample> {
  const started = performance.now();
  const server = await spawnServerProcess(
    { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', PUBLIC_URL: '', LOG_LEVEL: 'warn' },
    run,
  );
  const { child } = server;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the ${run} server exited:\n${server.output()}`);
      const up = await fetch(`${server.base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const toHealthzMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { toHealthzMs, idleRssMiB: rssMiB(child.pid ?? 0) };
  } finally {
    child.kill('SIGTERM');
    await server.exited();
  }
}

export interface StartFigures {
  /** Median of the runs (what the bars are checked against). */
  toHealthzMs: number;
  idleRssMiB: number;
  toHealthz: Spread;
  idleRss: Spread;
}

export interface StartBench {
  runs: number;
  compiled: StartFigures;
  /** The sources through the TypeScript loader: information, not checked. */
  tsLoader: StartFigures;
  /** compiled ÷ TypeScript loader, medians (information). */
  ratio: { toHealthz: number; idleRss: number };
  /** The first start, on an empty data dir (one sample). */
  firstStart: StartSample;
  budget: { maxToHealthzMs: number; maxIdleRssMiB: number; maxFirstStartRssMiB: number; ok: boolean };
}

function figures(samples: StartSample[]): StartFigures {
  const toHealthz = spread(samples.map((s) => s.toHealthzMs));
  const idleRss = spread(samples.map((s) => s.idleRssMiB));
  return { toHealthzMs: toHealthz.median, idleRssMiB: idleRss.median, toHealthz, idleRss };
}

/** RUNS alternating starts of each kind, on one existing data dir (its first run done before). */
export async function benchStart(): Promise<StartBench> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-bench-start-'));
  try {
    // Creates and migrates the database: what the bars measure is a start on an existing data dir.
    const firstStart = await startOnce('compiled', dataDir);
    const compiled: StartSample[] = [];
    const ts: StartSample[] = [];
    for (let i = 0; i < RUNS; i++) {
      compiled.push(await startOnce('compiled', dataDir));
      ts.push(await startOnce('source', dataDir));
    }
    const c = figures(compiled);
    const t = figures(ts);
    return {
      runs: RUNS,
      compiled: c,
      tsLoader: t,
      ratio: { toHealthz: c.toHealthzMs / t.toHealthzMs, idleRss: c.idleRssMiB / t.idleRssMiB },
      firstStart,
      budget: {
        maxToHealthzMs: MAX_TO_HEALTHZ_MS,
        maxIdleRssMiB: MAX_IDLE_RSS_MIB,
        maxFirstStartRssMiB: MAX_FIRST_START_RSS_MIB,
        ok:
          c.toHealthzMs <= MAX_TO_HEALTHZ_MS &&
          c.idleRssMiB <= MAX_IDLE_RSS_MIB &&
          firstStart.idleRssMiB <= MAX_FIRST_START_RSS_MIB,
      },
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One line: the compiled server's figures against the bars, and the TypeScript loader's beside them. */
export function describeStart(x: StartBench): string {
  return (
    `Cold start, compiled, existing data dir: to /healthz ${describeSpread(x.compiled.toHealthz, ' ms', 0)} ` +
    `(bar ≤ ${x.budget.maxToHealthzMs} ms), idle RSS ${describeSpread(x.compiled.idleRss, ' MiB', 0)} (bar ≤ ${x.budget.maxIdleRssMiB} MiB); ` +
    `first start (empty data dir) ${x.firstStart.toHealthzMs.toFixed(0)} ms, idle RSS ${x.firstStart.idleRssMiB.toFixed(0)} MiB (bar ≤ ${x.budget.maxFirstStartRssMiB} MiB); ` +
    `TypeScript loader, for information: ${x.tsLoader.toHealthzMs.toFixed(0)} ms, ${x.tsLoader.idleRssMiB.toFixed(0)} MiB ` +
    verdict(x.budget.ok)
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchStart();
  console.log(JSON.stringify(r, null, 2));
  console.log(describeStart(r));
}
