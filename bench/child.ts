// The benches' processes. A server the app runs in runs compiled (bench/build.mjs), as `npm start`
// runs the app; the model fixture and the load generators run from source.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { START_NODE_OPTIONS } from '../apps/server/src/test/server-process.ts';

const root = path.resolve(import.meta.dirname, '..');
/** The bench processes that host the app. */
const BENCH_SERVERS = ['server-child', 'stream-server', 'knowledge-server'];
let built = false;

/** bench/.build up to date with the sources (a fingerprint when it is). */
export function buildBenchServers(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(root, 'bench/build.mjs'), ...BENCH_SERVERS], {
    stdio: 'inherit',
  });
  built = true;
}

/**
 * Starts `file` (e.g. `bench/stream-server.ts`) and resolves with the first line it prints that is
 * not a log line, parsed. With `ipc`, the child can be asked for `stats`.
 */
export async function startChild(
  file: string,
  env: Record<string, string>,
  ipc = false,
): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const name = path.basename(file).replace(/\.ts$/, '');
  const compiled = BENCH_SERVERS.includes(name);
  if (compiled) buildBenchServers();
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server process there, to see where time goes.
  const prof =
    compiled && process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
  // As apps/server/package.json's start runs it, plus a way to collect garbage before memory figures.
  const flags = ipc ? ['--expose-gc'] : [];
  const entry = compiled
    ? [...START_NODE_OPTIONS, path.join(root, 'bench/.build', `${name}.js`)]
    : ['--import', 'tsx', path.join(root, file)];
  const child = spawn(process.execPath, [...prof, ...flags, ...entry], {
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

export interface Stats {
  cpu: NodeJS.CpuUsage;
  rss: number;
  heapUsed: number;
  external: number;
  at: number;
  /** The process's main thread since the previous `stats`. */
  loop: { p99Ms: number; maxMs: number; gcMaxMs: number; gcTotalMs: number };
}

/** A child's CPU time and memory; `collect` runs its GC first (for memory figures only). */
export function stats(child: ChildProcess, collect = false): Promise<Stats> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Stats));
    child.send(collect ? 'stats:gc' : 'stats');
  });
}
