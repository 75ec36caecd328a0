import { isUtf8 } from 'node:buffer';
import { AllowedUploadTypes } from '@assistente/contracts';
import { contentMismatch, unsupportedType } from './errors.ts';

/** What browsers send for files they do not know, and a few common aliases. */
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'text/x-markdown': 'text/markdown',
  'application/csv': 'text/csv',
  'text/x-csv': 'text/csv',
  'text/json': 'application/json',
  'application/x-pdf': 'application/pdf',
};
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  csv: 'text/csv',
  json: 'application/json',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
};

const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** How much of a file's start the content checks read (a PDF's header may sit anywhere in it). */
const HEAD_BYTES = 1024;

/** What the content checks need of a file: its first bytes, and whether all of it is text. */
export interface Sniff {
  head: Buffer;
  /** UTF-8 without NUL bytes (a UTF-8 BOM is fine). */
  text: boolean;
}

/**
 * Learns a file's `Sniff` from its chunks as they stream past, holding only the first HEAD_BYTES
 * and at most three bytes of a character split between chunks: an upload is checked on its way to
 * the store, never held whole (docs/ARCHITECTURE.md#uploads-and-stored-files).
 */
export class Sniffer {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private text = true;
  /** The start of a UTF-8 sequence the last chunk cut short. */
  private carry: Buffer | undefined;

  update(chunk: Buffer): void {
    if (this.headBytes < HEAD_BYTES) {
      const part = Buffer.from(chunk.subarray(0, HEAD_BYTES - this.headBytes));
      this.head.push(part);
      this.headBytes += part.length;
    }
    if (!this.text) return;
    if (chunk.includes(0)) {
      this.text = false;
      return;
    }
    const data = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const cut = incompleteTail(data);
    this.text = isUtf8(data.subarray(0, cut));
    this.carry = cut < data.length ? Buffer.from(data.subarray(cut)) : undefined;
  }

  finish(): Sniff {
    // A character cut short at the very end is not text.
    return { head: Buffer.concat(this.head), text: this.text && !this.carry };
  }
}

/** Where the UTF-8 sequence that `data` ends in mid-way starts (`data.length` when none does). */
function incompleteTail(data: Buffer): number {
  for (let i = data.length - 1; i >= Math.max(0, data.length - 3); i--) {
    const byte = data[i] as number;
    // Continuation bytes (10xxxxxx): look further back for the sequence's lead byte.
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return data.length - i < length ? i : data.length;
  }
  return data.length;
}

/** The `Sniff` of bytes at hand. */
export function sniff(data: Buffer): Sniff {
  const sniffer = new Sniffer();
  sniffer.update(data);
  return sniffer.finish();
}

/** Whether the first bytes agree with the type: a renamed executable or HTML page is refused. */
function contentMatches(type: string, content: Sniff): boolean {
  const data = content.head;
  switch (type) {
    case 'image/png':
      return startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(data, [0xff, 0xd8, 0xff]);
    case 'image/gif':
      return (
        data.subarray(0, 6).toString('latin1') === 'GIF87a' ||
        data.subarray(0, 6).toString('latin1') === 'GIF89a'
      );
    case 'image/webp':
      return (
        data.subarray(0, 4).toString('latin1') === 'RIFF' &&
        data.subarray(8, 12).toString('latin1') === 'WEBP'
      );
    case 'application/pdf':
      return data.includes('%PDF-');
    case 'text/plain':
    case 'text/markdown':
    case 'text/html':
    case 'text/csv':
    case 'application/json':
      return content.text;
    case 'application/msword':
    case 'application/vnd.ms-excel':
    case 'application/vnd.ms-powerpoint':
      return startsWith(data, OLE);
    default:
      // OOXML and OpenDocument files are zip archives.
      return startsWith(data, ZIP);
  }
}

/**
 * The content type an upload is stored and served with: the declared type (or, when the browser
 * sent none, the one its extension implies), if it is in `allowed` and the bytes (or what was
 * sniffed of them on their way) agree. Else 415.
 */
export function resolveUploadType(
  declared: string | undefined,
  fileName: string,
  content: Buffer | Sniff,
  allowed: readonly string[] = AllowedUploadTypes,
): string {
  let type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  type = ALIASES[type] ?? type;
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(fileName)?.[1]?.toLowerCase();
  const fromExt = ext ? BY_EXTENSION[ext] : undefined;
  // Browsers label .md/.csv files as octet-stream, text/plain or (on Windows) Excel; trust the
  // extension among text types only, where the bytes are checked to be text anyway.
  if (GENERIC.has(type) && fromExt) type = fromExt;
  else if (type === 'text/plain' && fromExt?.startsWith('text/')) type = fromExt;
  else if (type === 'application/vnd.ms-excel' && fromExt === 'text/csv') type = fromExt;
  if (!allowed.includes(type)) throw unsupportedType(type);
  if (!contentMatches(type, Buffer.isBuffer(content) ? sniff(content) : content)) throw contentMismatch(type);
  return type;
}
