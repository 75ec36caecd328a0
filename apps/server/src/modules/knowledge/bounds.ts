// How much a document may unpack to, checked before a parser sees it: a few hundred kilobytes of
// DOCX or PDF can inflate to gigabytes, and the parsers (mammoth's JSZip, PDF.js) hold all of it in
// memory at once. The checks read the container's own structure and inflate with a ceiling, so a
// bomb costs at most the ceiling, never what it claims or hides.
import { constants, createInflate, inflateRawSync } from 'node:zlib';
import type { KnowledgeFailure } from '@assistente/contracts';

/** Most text one document may yield (≈ 2,000 pages): more is refused, not indexed in part. */
export const MAX_TEXT_CHARS = 4_000_000;
/** Most passages one document is cut into: each is embedded and stored, so this bounds both. */
export const MAX_CHUNKS = 2_000;
/** Most entries a DOCX archive may hold; real ones have tens. */
export const MAX_ZIP_ENTRIES = 2_000;
/** Most the XML parts of a DOCX may unpack to, all together. */
export const MAX_ZIP_XML_BYTES = 32 * 1024 * 1024;
/** Most the compressed streams of a PDF that text extraction reads may unpack to, all together. */
export const MAX_PDF_INFLATED_BYTES = 64 * 1024 * 1024;

/** Most one image of a PDF may unpack to: a page scanned at 600 dpi in colour is about 100 MB. */
const MAX_PDF_IMAGE_BYTES = 96 * 1024 * 1024;

const mb = (n: number) => Math.round(n / (1024 * 1024));

/** A document refused by its size: the message for API clients and logs, the reason for the screen. */
export class DocumentBoundsError extends Error {
  override name = 'DocumentBoundsError';
  constructor(
    message: string,
    readonly reason: KnowledgeFailure,
  ) {
    super(message);
  }
}

export function tooMuchText(chars: number): DocumentBoundsError {
  return new DocumentBoundsError(
    `The document holds more than ${MAX_TEXT_CHARS.toLocaleString('en')} characters of text (${chars.toLocaleString('en')} read before stopping)`,
    { kind: 'too_much_text', limit: MAX_TEXT_CHARS },
  );
}

/**
 * Checks a ZIP-based document (DOCX) from its central directory: the entry count, then the size of
 * every XML part, inflated up to what its entry declares — an entry that unpacks to more than it
 * declares is a lie and refuses the file. Media parts are not read by the extractor, so only counted.
 */
export function checkZip(data: Uint8Array): void {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const bad = (why: string) =>
    new DocumentBoundsError(`The file is not a readable DOCX: ${why}`, { kind: 'unreadable' });
  // The end-of-central-directory record sits in the last 22 + 65,535 (comment) bytes.
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw bad('no ZIP directory');
  const entries = buf.readUInt16LE(end + 10);
  const dirOffset = buf.readUInt32LE(end + 16);
  if (entries === 0xffff || dirOffset === 0xffffffff) throw bad('ZIP64 archives are not accepted');
  if (entries > MAX_ZIP_ENTRIES)
    throw new DocumentBoundsError(`The DOCX holds ${entries} parts; at most ${MAX_ZIP_ENTRIES} are read`, {
      kind: 'docx_too_many_parts',
      limit: MAX_ZIP_ENTRIES,
    });
  let xmlBytes = 0;
  let at = dirOffset;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw bad('a broken ZIP directory');
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const declared = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    const local = buf.readUInt32LE(at + 42);
    at = next;
    if (!/\.(xml|rels)$/i.test(name)) continue;
    if (declared === 0xffffffff || compressed === 0xffffffff) throw bad('ZIP64 archives are not accepted');
    xmlBytes += declared;
    if (xmlBytes > MAX_ZIP_XML_BYTES)
      throw new DocumentBoundsError(
        `The DOCX unpacks to more than ${mb(MAX_ZIP_XML_BYTES)} MB of text markup; it is not read`,
        { kind: 'docx_too_large', limitMb: mb(MAX_ZIP_XML_BYTES) },
      );
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw bad('a broken ZIP entry');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const body = buf.subarray(start, start + compressed);
    if (method === 0) {
      if (body.length !== declared) throw bad(`${name} is not the size it declares`);
    } else if (method === 8) {
      try {
        // One byte over what it declares is enough to know it lies.
        inflateRawSync(body, { maxOutputLength: declared + 1 });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          throw new DocumentBoundsError(
            `The DOCX part ${name} unpacks to more than it declares; it is not read`,
            { kind: 'deceptive_file' },
          );
        throw bad(`${name} is damaged`);
      }
    } else {
      throw bad(`${name} uses an unsupported compression`);
    }
  }
}

const STREAM = /stream\r?\n/g;

/** Bytes `body` inflates to, counted as they come and dropped, stopping once past `limit`. */
async function inflatedSize(body: Uint8Array, limit: number): Promise<number> {
  // A stream cut short still counts as far as it goes: that is what PDF.js reads too.
  const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
  inflate.end(body);
  let size = 0;
  try {
    for await (const chunk of inflate) {
      size += (chunk as Buffer).length;
      if (size > limit) break;
    }
  } catch {
    // A damaged stream is PDF.js's to judge; what came out before the damage is counted.
  } finally {
    inflate.destroy();
  }
  return size;
}

/** What an image's samples take at most, from its dictionary (undefined when not written there). */
function imageBytes(dict: string): number | undefined {
  const num = (key: string) => {
    const m = dict.match(new RegExp(`/${key}\\s+(\\d+)\\b(?!\\s+\\d+\\s+R)`));
    return m ? Number(m[1]) : undefined;
  };
  const width = num('Width');
  const height = num('Height');
  if (width === undefined || height === undefined) return undefined;
  // Four 16-bit components and a predictor byte per row: as much as any image can honestly need.
  return Math.min(width * height * 8 + height + 1024, MAX_PDF_IMAGE_BYTES);
}

/**
 * Checks a PDF's Flate streams before PDF.js reads it, inflating each (counted, not kept): together
 * they may unpack to at most the budget, except images, which may each unpack only to what their
 * width and height need, within a ceiling of their own — PDF.js inflates anything it is pointed at, so a "/Subtype /Image" is trusted no
 * further than its size. A chain that inflates twice, or after another filter, could hide its size
 * from this count, so it is refused.
 */
export async function checkPdf(data: Uint8Array): Promise<void> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const text = buf.toString('latin1');
  const tooBig = () =>
    new DocumentBoundsError(`The PDF unpacks to more than ${mb(MAX_PDF_INFLATED_BYTES)} MB; it is not read`, {
      kind: 'pdf_too_large',
      limitMb: mb(MAX_PDF_INFLATED_BYTES),
    });
  let budget = MAX_PDF_INFLATED_BYTES;
  for (const match of text.matchAll(STREAM)) {
    const at = match.index;
    // The stream's dictionary ends right before the keyword ("endstream" also ends in "stream").
    const before = text.slice(Math.max(0, at - 4096), at);
    if (!/>>\s*$/.test(before)) continue;
    const dict = before.slice(before.lastIndexOf(' obj') + 1);
    const filters = dict.match(/\/Filter\s*(\[[^\]]*\]|\/\w+)/)?.[1]?.match(/\/\w+/g) ?? [];
    const flate = filters.filter((f) => f === '/FlateDecode' || f === '/Fl').length;
    if (flate === 0) continue;
    if (flate > 1 || (filters[0] !== '/FlateDecode' && filters[0] !== '/Fl'))
      throw new DocumentBoundsError('The PDF hides a stream behind nested compression; it is not read', {
        kind: 'deceptive_file',
      });
    const startAt = at + match[0].length;
    const stop = text.indexOf('endstream', startAt);
    const body = buf.subarray(startAt, stop < 0 ? buf.length : stop);
    const image = /\/Subtype\s*\/Image\b/.test(dict) ? imageBytes(dict) : undefined;
    if (image !== undefined) {
      if ((await inflatedSize(body, image)) > image)
        throw new DocumentBoundsError('The PDF holds an image larger than its size says; it is not read', {
          kind: 'deceptive_file',
        });
      continue;
    }
    budget -= await inflatedSize(body, budget);
    if (budget < 0) throw tooBig();
  }
}
