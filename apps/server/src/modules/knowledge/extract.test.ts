import { describe, expect, it } from 'vitest';
import { extractDocument, htmlToText } from './extract.ts';
import { makeDocx, makePdf } from './test/documents.ts';

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
