// Document → text for the index, with kept libraries only: Mozilla's PDF.js for PDF, mammoth for DOCX,
// node-html-markdown for HTML (and DOCX's HTML). Headings come out as Markdown `#` lines, which the
// chunker follows. Runs inside the extraction worker (extract-worker.ts), never on the event loop.
import mammoth from 'mammoth';
import { NodeHtmlMarkdown } from 'node-html-markdown';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { checkPdf, checkZip, DocumentBoundsError, MAX_TEXT_CHARS, tooMuchText } from './bounds.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const html = new NodeHtmlMarkdown({ keepDataImages: false, useLinkReferenceDefinitions: false });

/** HTML (a page, Confluence storage format, mammoth's output) as Markdown: headings, lists, tables, code. */
export function htmlToText(source: string): string {
  return html.translate(source).trim();
}

/** Images are dropped from the text anyway: mammoth is told not to read them at all. */
const noImages = mammoth.images.imgElement(async () => ({ src: '' }));

/** Text no longer than the cap, or the refusal saying how much there was. */
function bounded(text: string): string {
  if (text.length > MAX_TEXT_CHARS) throw tooMuchText(text.length);
  return text;
}

/**
 * The text of one document, by its (checked) content type. Archives and compressed streams are
 * measured before they are parsed, and text past the cap is refused (see bounds.ts).
 */
export async function extractDocument(contentType: string, data: Uint8Array): Promise<string> {
  switch (contentType) {
    case 'application/pdf': {
      await checkPdf(data);
      // No eval, no fonts: only the text layer is read.
      const task = getDocument({
        data: new Uint8Array(data),
        isEvalSupported: false,
        disableFontFace: true,
        verbosity: 0,
      });
      const pdf = await task.promise;
      try {
        const pages: string[] = [];
        let length = 0;
        for (let n = 1; n <= pdf.numPages; n++) {
          const page = await pdf.getPage(n);
          const content = await page.getTextContent();
          let text = '';
          for (const item of content.items) {
            if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
          }
          pages.push(text.trim());
          page.cleanup();
          length += text.length;
          // Stop reading at the cap: the pages after it would only be refused with the rest.
          if (length > MAX_TEXT_CHARS) throw tooMuchText(length);
        }
        return pages.filter(Boolean).join('\n\n');
      } finally {
        await task.destroy();
      }
    }
    case DOCX: {
      checkZip(data);
      const { value } = await mammoth.convertToHtml(
        { buffer: Buffer.from(data) },
        { convertImage: noImages },
      );
      return bounded(htmlToText(value));
    }
    case 'text/html':
      return bounded(htmlToText(Buffer.from(data).toString('utf8')));
    case 'text/markdown':
    case 'text/plain':
      return bounded(
        Buffer.from(data)
          .toString('utf8')
          .replace(/^\uFEFF/, ''),
      );
    default:
      throw new DocumentBoundsError(`Cannot extract text from ${contentType}`, {
        kind: 'unsupported',
        contentType,
      });
  }
}
