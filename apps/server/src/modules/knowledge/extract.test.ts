import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { flate, makeDocx, makePdf } from '../../test/knowledge/documents.ts';
import { MAX_PDF_INFLATED_BYTES, MAX_TEXT_CHARS, MAX_ZIP_ENTRIES, MAX_ZIP_XML_BYTES } from './bounds.ts';
import { extractDocument, htmlToText } from './extract.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('extractDocument', () => {
  it('reads the text of a PDF', async () => {
    const text = await extractDocument('application/pdf', makePdf(['Refund policy', 'Refunds take 7 days.']));
    expect(text).toContain('Refund policy');
    expect(text).toContain('Refunds take 7 days.');
  });

  it('reads a DOCX with its headings as Markdown headings', async () => {
    const text = await extractDocument(DOCX, makeDocx('Travel', ['Book flights through the portal.']));
    expect(text).toMatch(/^# Travel$/m);
    expect(text).toContain('Book flights through the portal.');
  });

  it('turns HTML into Markdown keeping headings, lists, tables and code', () => {
    const text = htmlToText(
      '<h2>Deploy</h2><ul><li>build</li><li>ship</li></ul><table><tr><th>Env</th><th>URL</th></tr><tr><td>prod</td><td>x</td></tr></table><pre><code>npm start</code></pre><script>alert(1)</script>',
    );
    expect(text).toMatch(/^## Deploy$/m);
    expect(text).toMatch(/^\* build$/m);
    expect(text).toMatch(/\| Env +\| URL \|/);
    expect(text).toMatch(/\| prod +\| x +\|/);
    expect(text).toContain('npm start');
    expect(text).not.toContain('alert');
  });

  it('passes Markdown and text through, without a byte-order mark', async () => {
    expect(await extractDocument('text/markdown', Buffer.from('\uFEFF# A\n\nb'))).toBe('# A\n\nb');
  });

  it('refuses a broken PDF with an error, not a hang', async () => {
    await expect(extractDocument('application/pdf', Buffer.from('%PDF-1.4 garbage'))).rejects.toThrow();
  });
});

describe('extractDocument refuses document bombs before parsing them', () => {
  it('reads an ordinary deflated DOCX and a PDF with Flate streams', async () => {
    const docx = makeDocx('Travel', ['Book flights early.'], { deflate: true });
    expect(await extractDocument(DOCX, docx)).toContain('Book flights early.');
    const content = 'BT /F1 14 Tf 72 720 Td (Compressed hello) Tj ET';
    const pdf = makePdf([], {
      contents: { dict: '/Filter /FlateDecode', data: Buffer.from(deflateSync(content)) },
      extra: [{ dict: '/Subtype /Image /Width 100 /Height 100 /Filter /FlateDecode', data: flate(30_000) }],
    });
    expect(await extractDocument('application/pdf', pdf)).toContain('Compressed hello');
  });

  it('a DOCX whose markup unpacks past the cap', async () => {
    const bomb = makeDocx('Bomb', ['x'], { deflate: true, padding: MAX_ZIP_XML_BYTES + 1 });
    expect(bomb.length).toBeLessThan(200_000);
    await expect(extractDocument(DOCX, bomb)).rejects.toThrow(/unpacks to more than 32 MB/);
  });

  it('a DOCX part that unpacks to more than its directory declares', async () => {
    const liar = makeDocx('Liar', ['x'], {
      deflate: true,
      padding: 4_000_000,
      declare: (name, size) => (name === 'word/document.xml' ? 1_000 : size),
    });
    await expect(extractDocument(DOCX, liar)).rejects.toThrow(
      /word\/document.xml unpacks to more than it declares/,
    );
  });

  it('a DOCX of too many parts', async () => {
    const parts = Object.fromEntries(
      Array.from({ length: MAX_ZIP_ENTRIES }, (_, i) => [`customXml/item${i}.xml`, '<a/>']),
    );
    await expect(extractDocument(DOCX, makeDocx('Many', ['x'], { parts }))).rejects.toThrow(
      /holds 2003 parts; at most 2000/,
    );
  });

  it('a PDF whose page stream unpacks past the budget', async () => {
    const bomb = makePdf([], {
      contents: { dict: '/Filter /FlateDecode', data: flate(MAX_PDF_INFLATED_BYTES + 1) },
    });
    expect(bomb.length).toBeLessThan(200_000);
    await expect(extractDocument('application/pdf', bomb)).rejects.toThrow(/PDF unpacks to more than 64 MB/);
  });

  it('a PDF stream posing as a small image, or hidden behind two layers of Flate', async () => {
    const posing = makePdf(['Hello'], {
      extra: [{ dict: '/Subtype /Image /Width 10 /Height 10 /Filter /FlateDecode', data: flate(1_000_000) }],
    });
    await expect(extractDocument('application/pdf', posing)).rejects.toThrow(
      /image larger than its size says/,
    );
    const nested = makePdf([], {
      contents: { dict: '/Filter [/FlateDecode /FlateDecode]', data: deflateSync(flate(1_000_000)) },
    });
    await expect(extractDocument('application/pdf', nested)).rejects.toThrow(/nested compression/);
  });

  it('text past the cap, whatever the format', async () => {
    await expect(extractDocument('text/plain', Buffer.alloc(MAX_TEXT_CHARS + 1, 'a'))).rejects.toThrow(
      /more than 4,000,000 characters/,
    );
  });
});
