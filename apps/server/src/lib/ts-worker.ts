import { type MessagePort, parentPort, Worker, type WorkerOptions, workerData } from 'node:worker_threads';

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

/** Inside a worker started by `spawnTsWorker`: its port to the main thread and the data it was given. */
export function workerSide<T>(module: string): { port: MessagePort; data: T } {
  if (!parentPort) throw new Error(`${module} runs as a worker thread`);
  return { port: parentPort, data: workerData as T };
}
