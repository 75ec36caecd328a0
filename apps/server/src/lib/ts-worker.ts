import path from 'node:path';
import { type MessagePort, parentPort, Worker, type WorkerOptions, workerData } from 'node:worker_threads';

/** Compiled by scripts/build-server.mjs: every module, workers included, is plain JavaScript in dist/. */
const compiled = !import.meta.url.endsWith('.ts');

/** Every thread started here and not yet exited, by pool (its entry's file name): the metrics read them. */
const alive = new Map<Worker, string>();

/** The worker threads alive in this process and the pool of each (docs/ARCHITECTURE.md#metrics). */
export function liveWorkers(): Array<{ pool: string; worker: Worker }> {
  return [...alive].map(([worker, pool]) => ({ pool, worker }));
}

/**
 * A worker thread running one of our modules. Compiled, it is the `.js` entry beside the code that
 * asks for it; from source (dev, tests) tsx runs the TypeScript: a worker does not inherit the
 * loader the main thread was started with (`--import tsx`), so it registers tsx first.
 */
export function spawnTsWorker(
  entry: URL,
  workerData: unknown,
  opts: Omit<WorkerOptions, 'eval'> = {},
): Worker {
  const worker = compiled
    ? new Worker(new URL(entry.href.replace(/\.ts$/, '.js')), { ...opts, workerData })
    : fromSource(entry, workerData, opts);
  alive.set(worker, path.basename(entry.pathname).replace(/\.[jt]s$/, ''));
  worker.once('exit', () => alive.delete(worker));
  return worker;
}

function fromSource(entry: URL, workerData: unknown, opts: Omit<WorkerOptions, 'eval'>): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { ...opts, eval: true, workerData });
}

/** Inside a worker started by `spawnTsWorker`: its port to the main thread and the data it was given. */
export function workerSide<T>(module: string): { port: MessagePort; data: T } {
  if (!parentPort) throw new Error(`${module} runs as a worker thread`);
  return { port: parentPort, data: workerData as T };
}
