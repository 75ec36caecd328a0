// Small real documents for the knowledge tests, written byte by byte to their formats' specs (a
// one-page PDF with a text object, a stored-zip DOCX), so extraction runs the real libraries.
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';

/** A stream object of a PDF: its dictionary's entries besides /Length, and its (encoded) bytes. */
export interface PdfStream {
  dict: string;
  data: Buffer;
}

/**
 * A one-page PDF whose page shows `lines` (Helvetica), with a correct cross-reference table.
 * `contents` replaces the page's text with a stream of its own (a Flate bomb, say); `extra` adds
 * objects no page draws.
 */
export function makePdf(lines: string[], opts: { contents?: PdfStream; extra?: PdfStream[] } = {}): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = `BT /F1 14 Tf 72 720 Td 18 TL ${lines.map((l) => `(${esc(l)}) '`).join(' ')} ET`;
  const stream = ({ dict, data }: PdfStream) =>
    Buffer.concat([
      Buffer.from(`<< /Length ${data.length} ${dict} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream(opts.contents ?? { dict: '', data: Buffer.from(text, 'latin1') }),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...(opts.extra ?? []).map(stream),
  ].map((o) => (typeof o === 'string' ? Buffer.from(o, 'latin1') : o));
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) tail += `${String(o).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(tail, 'latin1')]);
}

/** `size` bytes of spaces, Flate-encoded: a few kilobytes that PDF.js would unpack in full. */
export const flate = (size: number): Buffer => deflateSync(Buffer.alloc(size, 0x20), { level: 9 });

export interface ZipOptions {
  /** Deflate the entries (a bomb's few kilobytes) instead of storing them. */
  deflate?: boolean;
  /** The uncompressed size the directory claims for an entry, if not its real one. */
  declare?: (name: string, size: number) => number;
}

interface EntryFields {
  method: number;
  crc: number;
  stored: number;
  size: number;
  nameLength: number;
}

/** The fields a zip entry's local and central headers share: the same order, the central two bytes later. */
function writeEntryFields(header: Buffer, at: number, f: EntryFields): void {
  header.writeUInt16LE(f.method, at);
  header.writeUInt32LE(f.crc, at + 6);
  header.writeUInt32LE(f.stored, at + 10);
  header.writeUInt32LE(f.size, at + 14);
  header.writeUInt16LE(f.nameLength, at + 18);
}

/** A zip archive of `files` (PKWARE APPNOTE: local headers, central directory). */
function makeZip(files: Record<string, string | Buffer>, opts: ZipOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const raw = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const data = opts.deflate ? deflateRawSync(raw, { level: 9 }) : raw;
    const size = opts.declare ? opts.declare(name, raw.length) : raw.length;
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    const fields = {
      method: opts.deflate ? 8 : 0,
      crc,
      stored: data.length,
      size,
      nameLength: nameBytes.length,
    };
    writeEntryFields(local, 8, fields);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    writeEntryFields(central, 10, fields);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/**
 * A DOCX with a Heading 1 and paragraphs. `padding` letters inside the first paragraph's text make
 * its markup that much larger (deflated, a bomb of a few kilobytes).
 */
export function makeDocx(
  heading: string,
  paragraphs: string[],
  opts: ZipOptions & { padding?: number; parts?: Record<string, string> } = {},
): Buffer {
  const p = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t>${text}</w:t></w:r></w:p>`;
  const body = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${p(heading, 'Heading1')}${paragraphs.map((t) => p(t)).join('')}</w:body></w:document>`;
  const cut = body.indexOf('</w:t>');
  const document = opts.padding
    ? Buffer.concat([
        Buffer.from(body.slice(0, cut)),
        Buffer.alloc(opts.padding, 'x'),
        Buffer.from(body.slice(cut)),
      ])
    : body;
  return makeZip(
    {
      '[Content_Types].xml':
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      '_rels/.rels':
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      'word/document.xml': document,
      ...opts.parts,
    },
    opts,
  );
}
