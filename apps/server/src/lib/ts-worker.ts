import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript module through tsx, as the server itself runs. A worker
 * does not inherit the loader the main thread was started with (`--import tsx`), so it registers
 * tsx before importing its module.
 */
export function spawnTsWorker(
  entry: URL,
  workerData: unknown,
  opts: Omit<WorkerOptions, 'eval'> = {},
): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(boot, { ...opts, eval: true, workerData });
}
