import type { FastifyRequest } from 'fastify';
import { AppError, invalidField } from '../../lib/errors.ts';
import { malformedMultipart, notMultipart, oneFilePerRequest, tooLarge } from './errors.ts';

export interface ReadUpload {
  fileName: string;
  declaredType: string | undefined;
  data: Buffer;
}

/**
 * Reads the one file of a `multipart/form-data` request (any field name), refusing anything else:
 * 415 for another content type, 400 without a file, 413 past `maxBytes` (the rest is not read).
 * The route must have registered `@fastify/multipart` with `limits.fileSize` ≥ `maxBytes`.
 */
export async function readSingleUpload(request: FastifyRequest, maxBytes: number): Promise<ReadUpload> {
  if (!request.isMultipart()) {
    throw notMultipart();
  }
  try {
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
    if (!part) throw invalidField('file', 'No file in the request');
    const data = await part.toBuffer();
    return { fileName: part.filename, declaredType: part.mimetype, data };
  } catch (err) {
    const code = (err as { code?: unknown } | undefined)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw oneFilePerRequest();
    }
    if (err instanceof AppError) throw err;
    // Nothing but the request's own bytes is read here: whatever busboy chokes on (a truncated
    // body, no boundary, a broken part header) is the client's malformed upload, not our fault.
    throw malformedMultipart();
  }
}
