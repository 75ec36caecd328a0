import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../../lib/errors.ts';
import { type Sniff, Sniffer } from './content-types.ts';
import { malformedMultipart, notMultipart, oneFilePerRequest, tooLarge } from './errors.ts';

/** A file whose bytes are at hand (one a tool made). */
export interface BufferedUpload {
  fileName: string;
  declaredType: string | undefined;
  data: Buffer;
}

/** A file streamed from a request to a file on disk (`spoolSingleUpload`), never held in memory. */
export interface SpooledUpload {
  fileName: string;
  declaredType: string | undefined;
  /** Where its bytes are; the reader of the request removes the file. */
  path: string;
  size: number;
  /** What the content checks need, learnt on the way to disk. */
  sniff: Sniff;
}

/** An upload to store (`storeUpload`). */
export type ReadUpload = BufferedUpload | SpooledUpload;

/** Its size in bytes. */
export const uploadSize = (file: ReadUpload): number => ('data' in file ? file.data.length : file.size);

/**
 * Streams the one file of a `multipart/form-data` request (any field name) to `dest`, sniffing its
 * type on the way, refusing anything else: 415 for another content type, 400 without a file, 413
 * (`tooLargeError`) as soon as it passes `maxBytes` (the rest is not written). On any failure
 * (a client gone mid-upload too) `dest` may hold part of the file: the caller removes it
 * whatever happened. The route must have registered `@fastify/multipart` with `limits.fileSize`
 * ≥ `maxBytes`.
 */
export async function spoolSingleUpload(
  request: FastifyRequest,
  dest: string,
  maxBytes: number,
  tooLargeError: () => AppError = () => tooLarge(maxBytes),
): Promise<SpooledUpload> {
  if (!request.isMultipart()) {
    throw notMultipart();
  }
  let overLimit = false;
  let writeFailed: unknown;
  try {
    // A client that left while the upload waited for its slot: its body will never come, and
    // busboy, handed a closed request, would wait for it forever, holding the slot.
    if (request.raw.destroyed || request.raw.readableAborted) throw malformedMultipart();
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
    if (!part) throw invalidField('file', 'No file in the request');
    const sniffer = new Sniffer();
    let size = 0;
    const inspect = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        sniffer.update(chunk);
        cb(null, chunk);
      },
    });
    // Busboy stops passing bytes at the limit but would read the rest of the body to its end:
    // stop at once instead, so nothing more is written.
    part.file.once('limit', () => {
      overLimit = true;
      inspect.destroy(tooLargeError());
    });
    const out = createWriteStream(dest, { flags: 'wx' });
    out.once('error', (err) => {
      writeFailed = err;
    });
    await pipeline(part.file, inspect, out);
    if (part.file.truncated) throw tooLargeError();
    return {
      fileName: part.filename,
      declaredType: part.mimetype,
      path: dest,
      size,
      sniff: sniffer.finish(),
    };
  } catch (err) {
    if (overLimit) throw tooLargeError();
    // The disk refused the bytes (full, not writable): ours to fix, a 500.
    if (writeFailed) throw writeFailed;
    const code = (err as { code?: unknown } | undefined)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLargeError();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw oneFilePerRequest();
    }
    if (err instanceof AppError) throw err;
    // Nothing but the request's own bytes is read here: whatever busboy chokes on (a truncated
    // body, no boundary, a broken part header, a client gone mid-upload) is the client's malformed
    // upload, not our fault.
    throw malformedMultipart();
  }
}
