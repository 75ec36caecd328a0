import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { spawnTsWorker } from '../../lib/ts-worker.ts';

export type ExtractJob =
  | { kind: 'file'; contentType: string; data: Uint8Array }
  | { kind: 'html'; html: string };
export type ExtractRequest = ExtractJob & { id: number };
export type ExtractReply = { id: number; text: string } | { id: number; error: string };

/** A document that could not be read: its message is shown on the document. */
export class ExtractError extends Error {
  override name = 'ExtractError';
}

/** Longest one extraction may take before its worker is replaced (a hostile PDF must not hang it). */
const TIMEOUT_MS = 60_000;

/**
 * Text extraction on one worker thread, started on first use. A job that times out or a worker that
 * dies fails its jobs and the next job starts a fresh worker.
 */
export class Extractor {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve: (t: string) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnTsWorker(new URL('./extract-worker.ts', import.meta.url), null);
    worker.on('message', (reply: ExtractReply) => {
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      if ('error' in reply) job.reject(new ExtractError(reply.error));
      else job.resolve(reply.text);
    });
    const failAll = (why: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const job of this.pending.values()) job.reject(new ExtractError(why));
      this.pending.clear();
    };
    worker.on('error', (err) => {
      this.log.error({ err }, 'knowledge extraction worker failed');
      failAll('The document reader stopped');
    });
    worker.on('exit', () => failAll('The document reader stopped'));
    // Idle, the worker must not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private run(job: ExtractJob, transfer?: ArrayBuffer[]): Promise<string> {
    if (this.closed) return Promise.reject(new ExtractError('The server is shutting down'));
    const id = this.nextId++;
    const worker = this.start();
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.log.warn({ id }, 'a document took too long to read; restarting the reader');
        void worker.terminate();
      }, TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (t) => {
          clearTimeout(timer);
          resolve(t);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      const req: ExtractRequest = { ...job, id };
      worker.postMessage(req, transfer ?? []);
    });
  }

  /** The text of an uploaded document (its bytes are copied to the worker). */
  file(contentType: string, data: Buffer): Promise<string> {
    const copy = new Uint8Array(data);
    return this.run({ kind: 'file', contentType, data: copy }, [copy.buffer as ArrayBuffer]);
  }

  /** HTML (Confluence storage format) as Markdown-ish text. */
  html(html: string): Promise<string> {
    return this.run({ kind: 'html', html });
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}
