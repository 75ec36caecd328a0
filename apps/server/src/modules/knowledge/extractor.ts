import type { Worker } from 'node:worker_threads';
import type { KnowledgeFailure } from '@assistente/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { spawnTsWorker } from '../../lib/ts-worker.ts';

export type ExtractJob =
  | { kind: 'file'; contentType: string; data: Uint8Array }
  | { kind: 'html'; html: string }
  | { kind: 'article'; html: string; url: string };
export type ExtractRequest = ExtractJob & { id: number };
export type ExtractReply =
  | { id: number; text: string }
  | { id: number; error: string; reason: KnowledgeFailure };

/** A document that could not be read: the message for API clients and logs, the reason for the screen. */
export class ExtractError extends Error {
  override name = 'ExtractError';
  constructor(
    message: string,
    readonly reason: KnowledgeFailure,
  ) {
    super(message);
  }
}

/** Longest one extraction may take before its worker is replaced (a hostile PDF must not hang it). */
const TIMEOUT_MS = 60_000;
/**
 * The reader's heap: a document that needs more is refused, and the server's own memory is not
 * touched. Buffers outside the heap are bounded before parsing instead (bounds.ts).
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

interface Pending {
  id: number;
  domainId: string;
  job: ExtractJob;
  transfer: ArrayBuffer[];
  resolve: (text: string) => void;
  reject: (err: Error) => void;
}

/**
 * Text extraction on one worker thread, started on first use, one document at a time. Documents
 * wait in one queue per domain, served in turn, so a domain uploading (or attaching) many or heavy
 * documents delays only itself. A job that times out, or that the worker dies of, fails alone; the
 * next job starts a fresh worker.
 */
export class Extractor {
  private worker: Worker | undefined;
  private readonly queues = new Map<string, Pending[]>();
  private current:
    | (Pending & { worker: Worker; fail: (why: string, reason: KnowledgeFailure) => void })
    | undefined;
  private nextId = 1;
  private closed = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnTsWorker(new URL('./extract-worker.ts', import.meta.url), null, {
      resourceLimits: WORKER_LIMITS,
    });
    worker.on('message', (reply: ExtractReply) => {
      const job = this.current;
      if (!job || job.id !== reply.id) return;
      this.finish();
      if ('error' in reply) job.reject(new ExtractError(reply.error, reply.reason));
      else job.resolve(reply.text);
    });
    const stopped = (why: string, reason: KnowledgeFailure) => {
      if (this.worker === worker) this.worker = undefined;
      // Only the job this worker was reading: a replaced worker's exit must not fail the next one.
      if (this.current?.worker === worker) this.current.fail(why, reason);
    };
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        stopped('The document needs more memory to read than a document may use', { kind: 'out_of_memory' });
        return;
      }
      this.log.error({ err }, 'knowledge extraction worker failed');
      stopped('The document reader stopped', { kind: 'reader_stopped' });
    });
    worker.on('exit', () => stopped('The document reader stopped', { kind: 'reader_stopped' }));
    // Idle, the worker must not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Clears the running job and starts the next one: the domain just served goes to the back. */
  private finish(): void {
    const domain = this.current?.domainId;
    this.current = undefined;
    const waiting = domain === undefined ? undefined : this.queues.get(domain);
    if (domain !== undefined && waiting) {
      this.queues.delete(domain);
      this.queues.set(domain, waiting);
    }
    this.pump();
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const [domain, queue] = this.queues.entries().next().value ?? [];
    if (!domain || !queue) return;
    const next = queue.shift() as Pending;
    if (queue.length === 0) this.queues.delete(domain);
    const worker = this.start();
    const timer = setTimeout(() => {
      this.log.warn({ id: next.id }, 'a document took too long to read; restarting the reader');
      this.current?.fail('The document took too long to read', { kind: 'timeout' });
    }, TIMEOUT_MS);
    let failed = false;
    this.current = {
      ...next,
      worker,
      resolve: (t) => {
        clearTimeout(timer);
        next.resolve(t);
      },
      reject: (e) => {
        clearTimeout(timer);
        next.reject(e);
      },
      fail: (why, reason) => {
        if (failed) return;
        failed = true;
        clearTimeout(timer);
        // The worker may be mid-parse of this very document: it is replaced, not reused.
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
        this.finish();
        next.reject(new ExtractError(why, reason));
      },
    };
    const req: ExtractRequest = { ...next.job, id: next.id };
    worker.postMessage(req, next.transfer);
  }

  private run(domainId: string, job: ExtractJob, transfer: ArrayBuffer[] = []): Promise<string> {
    if (this.closed)
      return Promise.reject(new ExtractError('The server is shutting down', { kind: 'shutting_down' }));
    return new Promise<string>((resolve, reject) => {
      const queue = this.queues.get(domainId) ?? [];
      queue.push({ id: this.nextId++, domainId, job, transfer, resolve, reject });
      this.queues.set(domainId, queue);
      this.pump();
    });
  }

  /** The text of a document of `domainId` (its bytes are copied to the worker). */
  file(domainId: string, contentType: string, data: Buffer): Promise<string> {
    const copy = new Uint8Array(data);
    return this.run(domainId, { kind: 'file', contentType, data: copy }, [copy.buffer as ArrayBuffer]);
  }

  /** HTML (Confluence storage format) of `domainId` as Markdown-ish text. */
  html(domainId: string, html: string): Promise<string> {
    return this.run(domainId, { kind: 'html', html });
  }

  /** A web page's article (title and Markdown), for `fetch_page`, in `domainId`'s turn. */
  async article(domainId: string, html: string, url: string): Promise<{ title: string; markdown: string }> {
    return JSON.parse(await this.run(domainId, { kind: 'article', html, url })) as {
      title: string;
      markdown: string;
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.queues.values())
      for (const job of queue)
        job.reject(new ExtractError('The server is shutting down', { kind: 'shutting_down' }));
    this.queues.clear();
    this.current?.fail('The server is shutting down', { kind: 'shutting_down' });
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}
