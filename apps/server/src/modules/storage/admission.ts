import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { tooLarge } from './errors.ts';
import { assertRoomLeft } from './quota.ts';
import { type ReadUpload, readSingleUpload } from './upload.ts';

/**
 * Uploads whose bodies one process reads (and holds until stored) at once. More wait their turn
 * unread: their bytes stay in the sockets, not in this process's memory.
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
 * at once; then the body is read in one of the process's upload slots, held until `use` (which
 * stores it) is done. Without a Content-Length the limits still hold while reading.
 */
export async function receiveUpload<T>(
  ctx: AppContext,
  request: FastifyRequest,
  opts: { domainId: string; maxBytes: number },
  use: (file: ReadUpload) => Promise<T>,
): Promise<T> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > 0) {
    if (declared > opts.maxBytes + FRAMING_BYTES) throw tooLarge(opts.maxBytes);
    await assertRoomLeft(ctx, opts.domainId, Math.max(0, declared - FRAMING_BYTES));
  }
  return ctx.services.storage.uploads.run(async () => use(await readSingleUpload(request, opts.maxBytes)));
}
