// A web page's article, for `fetch_page` (docs/ARCHITECTURE.md#built-in-tools). Loaded by the
// extraction thread on the first page it reads: linkedom takes half a second to load, which every
// PDF and DOCX would otherwise wait for when the thread starts.
import { TOOL_OUTPUT_MAX_CHARS } from '@assistente/contracts';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { htmlToText } from './extract.ts';

/**
 * A web page's article as Markdown, as a browser's reader view finds it (Mozilla's Readability over
 * linkedom, no browser engine), its links made absolute against `url`; the whole body when no
 * article is found. Seconds of CPU on a large page: it runs on the extraction thread.
 */
export function articleOf(source: string, url: string): { title: string; markdown: string } {
  // Scripts, styles and inline drawings are most of a modern page's bytes and none of its text.
  const { document } = parseHTML(source.replace(NOT_TEXT, ''));
  // Readability resolves relative links against the document's address.
  Object.defineProperty(document, 'baseURI', { value: url });
  Object.defineProperty(document, 'documentURI', { value: url });
  const title = document.querySelector('title')?.textContent?.trim() ?? '';
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
    charThreshold: 200,
  }).parse();
  const body = article?.content ?? document.body?.innerHTML ?? source;
  // The model reads at most TOOL_OUTPUT_MAX_CHARS of it: converting more is time spent for nothing.
  return {
    title: article?.title?.trim() || title || url,
    markdown: htmlToText(body.slice(0, ARTICLE_HTML_MAX)),
  };
}

const NOT_TEXT = /<(script|style|svg|noscript|template)\b[\s\S]*?<\/\1\s*>/gi;
/** An article's HTML converted to Markdown: about three times what the model is given. */
const ARTICLE_HTML_MAX = 3 * TOOL_OUTPUT_MAX_CHARS;
