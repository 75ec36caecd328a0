// Cold start and idle memory of the production server (compiled, as `npm start` runs it) against
// the same sources run through the TypeScript loader (how production ran before), in one run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnServerProcess } from '../apps/server/src/test/server-process.ts';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
/** How long a started server is left alone before its memory is read. */
const SETTLE_MS = 3_000;

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export interface StartBench {
  runs: number;
  compiled: { toHealthzMs: number; idleRssMiB: number };
  tsLoader: { toHealthzMs: number; idleRssMiB: number };
  ratio: { toHealthz: number; idleRss: number };
  budget: { maxStartRatio: number; maxRssRatio: number; ok: boolean };
}

/** Medians over RUNS alternating starts of each kind, on one existing data dir (first run done). */
export async function benchStart(): Promise<StartBench> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-bench-start-'));
  try {
    // Creates and migrates the database: what is measured is a start on an existing data dir.
    await startOnce('compiled', dataDir);
    const compiled: StartSample[] = [];
    const ts: StartSample[] = [];
    for (let i = 0; i < RUNS; i++) {
      compiled.push(await startOnce('compiled', dataDir));
      ts.push(await startOnce('source', dataDir));
    }
    const c = {
      toHealthzMs: median(compiled.map((s) => s.toHealthzMs)),
      idleRssMiB: median(compiled.map((s) => s.idleRssMiB)),
    };
    const t = {
      toHealthzMs: median(ts.map((s) => s.toHealthzMs)),
      idleRssMiB: median(ts.map((s) => s.idleRssMiB)),
    };
    const ratio = { toHealthz: c.toHealthzMs / t.toHealthzMs, idleRss: c.idleRssMiB / t.idleRssMiB };
    return {
      runs: RUNS,
      compiled: c,
      tsLoader: t,
      ratio,
      budget: { maxStartRatio: 0.6, maxRssRatio: 0.75, ok: ratio.toHealthz <= 0.6 && ratio.idleRss <= 0.75 },
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchStart();
  console.log(JSON.stringify(r, null, 2));
}
