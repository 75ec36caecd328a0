import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { AppError } from '../../lib/errors.ts';
import { importBadZip, importTooLarge } from './errors.ts';

/** The bounds a ZIP is read within (ChatImportLimits' own; smaller ones in tests). */
export type ZipLimits = {
  [K in 'maxEntries' | 'maxUncompressedBytes' | 'maxCompressionRatio' | 'maxJsonBytes']: number;
};

/** Entries unpacking to less than this are not held to the compression ratio (small JSON compresses well). */
const RATIO_FROM_BYTES = 1024 * 1024;

/** `conversations.json`, or a shard of the newer ChatGPT exports (`conversations-000.json`, …), in any folder. */
const DOCUMENT_RE = /^conversations(-\d{1,6})?\.json$/i;

const MiB = (n: number) => `${Math.round(n / (1024 * 1024))} MiB`;

/** What one pass over the documents of a ZIP has unpacked so far, counted as it is read. */
export interface UnpackBudget {
  unpacked: number;
}

/** The conversations documents of an export ZIP, opened for reading (docs/ARCHITECTURE.md#chat-import). */
export interface ZipArchive {
  /** Entry names of the documents, shards in their order. */
  readonly documents: readonly string[];
  /**
   * One document's bytes, unpacked as they are read and checked against the limits as they come,
   * whatever the ZIP's headers claim: the stream fails with the limit's 413 and stops unpacking.
   */
  open(name: string, budget: UnpackBudget): Promise<NodeJS.ReadableStream>;
  close(): void;
}

const openZip = (file: string) =>
  new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      // Entry sizes are checked against their headers too: an entry unpacking to more than it
      // declares fails at its first byte too many.
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip)),
    ),
  );

/** Every entry of the central directory, counted against `maxEntries` as listed. */
function listEntries(zip: ZipFile, limits: ZipLimits): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      if (entries.length > limits.maxEntries) {
        reject(tooManyEntries(limits));
        return;
      }
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

const tooManyEntries = (limits: ZipLimits) =>
  importTooLarge('entries', limits.maxEntries, `The ZIP has more than ${limits.maxEntries} files`);
const tooMuchUnpacked = (limits: ZipLimits) =>
  importTooLarge(
    'uncompressed',
    limits.maxUncompressedBytes,
    `The ZIP unpacks to more than ${MiB(limits.maxUncompressedBytes)}`,
  );
const ratioTooHigh = (name: string, limits: ZipLimits) =>
  importTooLarge(
    'ratio',
    limits.maxCompressionRatio,
    `${name} in the ZIP is compressed more than ${limits.maxCompressionRatio} times, as a ZIP bomb is`,
  );
const jsonTooLarge = (name: string, limits: ZipLimits) =>
  importTooLarge('json', limits.maxJsonBytes, `${name} is larger than ${MiB(limits.maxJsonBytes)}`);

/**
 * Opens an export ZIP stored at `file` (random access: yauzl reads the central directory at its
 * end) and picks its conversations documents. Refused before anything is unpacked: too many
 * entries, headers that already declare more than the limits, an encrypted or unknown-method
 * document. What the documents really unpack to is checked again as they are read (`open`).
 */
export async function openExportZip(file: string, limits: ZipLimits): Promise<ZipArchive> {
  let zip: ZipFile;
  try {
    zip = await openZip(file);
  } catch (err) {
    throw importBadZip(reason(err));
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw tooManyEntries(limits);
    const entries = await listEntries(zip, limits).catch((err: unknown) => {
      throw err instanceof AppError ? err : importBadZip(reason(err));
    });
    let declared = 0;
    const documents = new Map<string, Entry>();
    for (const entry of entries) {
      declared += entry.uncompressedSize;
      if (declared > limits.maxUncompressedBytes) throw tooMuchUnpacked(limits);
      const base = path.posix.basename(entry.fileName);
      if (entry.fileName.endsWith('/') || !DOCUMENT_RE.test(base)) continue;
      // macOS archivers add `__MACOSX/._conversations.json` resource forks: not documents.
      if (entry.fileName.split('/').some((part) => part === '__MACOSX')) continue;
      if (entry.isEncrypted()) throw importBadZip(`${base} is encrypted`);
      if (!entry.canDecodeFileData()) throw importBadZip(`${base} uses an unsupported compression method`);
      if (entry.uncompressedSize > limits.maxJsonBytes) throw jsonTooLarge(base, limits);
      if (
        entry.uncompressedSize > RATIO_FROM_BYTES &&
        entry.uncompressedSize > limits.maxCompressionRatio * Math.max(1, entry.compressedSize)
      ) {
        throw ratioTooHigh(base, limits);
      }
      documents.set(entry.fileName, entry);
    }
    const names = [...documents.keys()].sort(byDocumentOrder);
    // Reading fails through each document's stream; an error the archive itself emits later (its
    // file closing) must not be an unhandled 'error' event that ends the process.
    zip.on('error', () => {});
    return {
      documents: names,
      open: (name, budget) => openDocument(zip, documents.get(name), name, budget, limits),
      close: () => zip.close(),
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}

/** Shallower first (the export's own top level), then by name: shards in their numeric order. */
function byDocumentOrder(a: string, b: string): number {
  const depth = a.split('/').length - b.split('/').length;
  return depth !== 0 ? depth : a.localeCompare(b, 'en', { numeric: true });
}

function openDocument(
  zip: ZipFile,
  entry: Entry | undefined,
  name: string,
  budget: UnpackBudget,
  limits: ZipLimits,
): Promise<NodeJS.ReadableStream> {
  if (!entry) return Promise.reject(importBadZip(`no entry ${name}`));
  const base = path.posix.basename(name);
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) {
        reject(importBadZip(reason(err)));
        return;
      }
      const guard = new UnpackGuard(base, entry.compressedSize, budget, limits);
      // yauzl's own failures (a lying header, a broken deflate stream) become the import's errors.
      stream.on('error', (e) => guard.destroy(translate(e, base, limits)));
      guard.on('close', () => stream.destroy());
      resolve(stream.pipe(guard));
    });
  });
}

/**
 * Counts what an entry unpacks to as it passes, and stops it at the first byte past a limit:
 * the JSON size, the ratio to its packed size (once past 1 MiB), the whole pass's total.
 */
export class UnpackGuard extends Transform {
  private seen = 0;
  constructor(
    private readonly name: string,
    private readonly packedBytes: number,
    private readonly budget: UnpackBudget,
    private readonly limits: ZipLimits,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    this.budget.unpacked += chunk.length;
    done(this.refusal(), chunk);
  }

  private refusal(): AppError | null {
    if (this.budget.unpacked > this.limits.maxUncompressedBytes) return tooMuchUnpacked(this.limits);
    if (this.seen > this.limits.maxJsonBytes) return jsonTooLarge(this.name, this.limits);
    const ratio = this.seen / Math.max(1, this.packedBytes);
    if (this.seen > RATIO_FROM_BYTES && ratio > this.limits.maxCompressionRatio) {
      return ratioTooHigh(this.name, this.limits);
    }
    return null;
  }
}

function translate(err: Error, name: string, limits: ZipLimits): Error {
  // yauzl: "too many bytes in the stream. expected N. got at least M"
  if (/too many bytes/i.test(err.message)) {
    return importTooLarge(
      'ratio',
      limits.maxCompressionRatio,
      `${name} in the ZIP unpacks to more than its header says, as a ZIP bomb does`,
    );
  }
  return importBadZip(reason(err));
}

const reason = (err: unknown) =>
  err instanceof Error ? err.message.replace(/\s+/g, ' ').slice(0, 200) : 'unreadable';
