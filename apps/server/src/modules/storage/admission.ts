import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { tooLarge } from './errors.ts';
import { assertRoomLeft } from './quota.ts';
import { type SpooledUpload, spoolSingleUpload } from './upload.ts';

/**
 * Uploads whose bodies one process reads (streaming them to disk) at once. More wait their turn
 * unread: their bytes stay in the sockets, and the process's open files and disk writes stay few.
 */
export const UPLOADS_AT_ONCE = 8;

/** What a Content-Length may carry beyond the file: the multipart boundaries and part headers. */
const FRAMING_BYTES = 16 * 1024;

/** A counting semaphore: `run` waits for one of `limit` slots, first come first served. */
export class UploadGate {
  private running = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  get active(): number {
    return this.running;
  }
  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next in line, so `running` never dips below the queue's need.
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * Admits an upload before its body is read (docs/ARCHITECTURE.md#uploads-and-stored-files): a
 * declared Content-Length past `maxBytes` is 413, and one the domain has no room for is 402, both
 * at once; then, in one of the process's upload slots, the body streams to a spool file on disk
 * (never whole in memory) for `use` to store (`storeUpload` moves or streams it into its bucket).
 * The spool file is removed whatever happened: a refused, failed or abandoned upload leaves
 * nothing behind. Without a Content-Length the limits still hold while reading.
 */
export async function receiveUpload<T>(
  ctx: AppContext,
  request: FastifyRequest,
  opts: { domainId: string; maxBytes: number },
  use: (file: SpooledUpload) => Promise<T>,
): Promise<T> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > 0) {
    if (declared > opts.maxBytes + FRAMING_BYTES) throw tooLarge(opts.maxBytes);
    await assertRoomLeft(ctx, opts.domainId, Math.max(0, declared - FRAMING_BYTES));
  }
  const { storage } = ctx.services;
  return storage.uploads.run(async () => {
    const spool = await storage.spoolPath();
    try {
      return await use(await spoolSingleUpload(request, spool, opts.maxBytes));
    } finally {
      await rm(spool, { force: true });
    }
  });
}
