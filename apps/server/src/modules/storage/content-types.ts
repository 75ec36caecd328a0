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

/** Whether the first bytes agree with the type: a renamed executable or HTML page is refused. */
function contentMatches(type: string, data: Buffer): boolean {
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
      return data.subarray(0, 1024).includes('%PDF-');
    case 'text/plain':
    case 'text/markdown':
    case 'text/html':
    case 'text/csv':
    case 'application/json':
      return isText(data);
    case 'application/msword':
    case 'application/vnd.ms-excel':
    case 'application/vnd.ms-powerpoint':
      return startsWith(data, OLE);
    default:
      // OOXML and OpenDocument files are zip archives.
      return startsWith(data, ZIP);
  }
}

/** UTF-8 without NUL bytes (a UTF-8 BOM is fine). */
function isText(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/**
 * The content type an upload is stored and served with: the declared type (or, when the browser
 * sent none, the one its extension implies), if it is in `allowed` and the bytes agree. Else 415.
 */
export function resolveUploadType(
  declared: string | undefined,
  fileName: string,
  data: Buffer,
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
  if (!contentMatches(type, data)) throw contentMismatch(type);
  return type;
}
