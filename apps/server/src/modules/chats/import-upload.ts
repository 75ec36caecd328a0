import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { notMultipart } from '../storage/errors.ts';
import { spoolSingleUpload, UploadGate } from '../storage/index.ts';
import type { ImportUpload } from './chat-import.ts';
import { importTooLarge } from './errors.ts';

/** What a Content-Length may carry beyond the file: the multipart boundaries and part headers. */
const FRAMING_BYTES = 16 * 1024;

const tooLarge = (maxBytes: number) =>
  importTooLarge(
    'upload',
    maxBytes,
    `The file is larger than the limit of ${Math.round(maxBytes / (1024 * 1024))} MiB`,
  );

/**
 * Streams the one file of a multipart request to a temporary file (a ZIP is read with random
 * access, and an upload of hundreds of MiB is never held in memory), hands it to `use`, then
 * removes it whatever happened. 413 past `maxBytes` (a declared Content-Length before reading),
 * 415 when not multipart, 400 without a file.
 */
export async function withUploadedFile<T>(
  request: FastifyRequest,
  maxBytes: number,
  use: (upload: ImportUpload) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw notMultipart();
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_BYTES) throw tooLarge(maxBytes);
  const dir = await mkdtemp(path.join(tmpdir(), 'assistente-import-'));
  try {
    const file = path.join(dir, 'upload');
    const { fileName } = await spoolSingleUpload(request, file, maxBytes, () => tooLarge(maxBytes));
    return await use({ path: file, fileName });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Imports running in this process: one per person (a second would race the first over the same
 * conversations), and at most `limit` in all, the others waiting their turn with their bodies
 * unread. Imports are rare and heavy (a long read of a large file, thousands of inserts).
 */
export class ImportGate {
  private readonly people = new Set<string>();
  private readonly gate: UploadGate;
  constructor(limit: number) {
    this.gate = new UploadGate(limit);
  }

  /** Whether `userId` has an import running or waiting. */
  busy(userId: string): boolean {
    return this.people.has(userId);
  }

  async run<T>(userId: string, task: () => Promise<T>): Promise<T> {
    this.people.add(userId);
    try {
      return await this.gate.run(task);
    } finally {
      this.people.delete(userId);
    }
  }
}
