import { BuiltinLimits } from '@assistente/contracts';
import type { FetchLike } from '../../../lib/ssrf.ts';

/*
 * `fetch_page` (docs/ARCHITECTURE.md#built-in-tools): a page the model names, read as Markdown.
 * The address is the model's, so it is the least trusted URL the server reaches: the SSRF guard
 * checks it and every redirect; the download stops at `pageBytes` and `pageTimeoutMs`; only text
 * comes back (HTML reduced to its article on the extraction thread, knowledge's `articleOf`).
 */

export interface ReadPage {
  /** Where the page ended up, after redirects. */
  url: string;
  title: string;
  markdown: string;
  /** The page was longer than what was downloaded. */
  cut: boolean;
}

export class PageUnreadable extends Error {
  override name = 'PageUnreadable';
}

const TEXT_TYPES = /^(text\/(html|plain|markdown|csv|xml)|application\/(xhtml\+xml|json|xml))/i;

/** The first `max` bytes of a body, and whether there was more. */
async function readUpTo(res: Response, max: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const reader = res.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = max - size;
    if (value.byteLength >= room) {
      chunks.push(value.subarray(0, room));
      size += room;
      cut = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, cut };
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset=([^;]+)/i.exec(contentType)?.[1]?.trim().replace(/"/g, '') ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Turns a page's HTML into its article: off the main thread (the knowledge extraction thread). */
export type ArticleReader = (html: string, url: string) => Promise<{ title: string; markdown: string }>;

/** Reads one page. Throws PageUnreadable for what is not a readable page; the guard's refusals as they are. */
export async function fetchPage(
  fetch: FetchLike,
  rawUrl: string,
  signal: AbortSignal,
  readArticle: ArticleReader,
): Promise<ReadPage> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new PageUnreadable('That is not a web address.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PageUnreadable('Only http and https pages can be read.');
  }
  const res = await fetch(url.href, {
    headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5' },
    signal: AbortSignal.any([signal, AbortSignal.timeout(BuiltinLimits.pageTimeoutMs)]),
  });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new PageUnreadable(`The page answered ${res.status}.`);
  }
  const contentType = res.headers.get('content-type') ?? 'text/html';
  if (!TEXT_TYPES.test(contentType)) {
    await res.body?.cancel().catch(() => {});
    throw new PageUnreadable(`The page is ${contentType.split(';')[0]}, not text that can be read.`);
  }
  const { bytes, cut } = await readUpTo(res, BuiltinLimits.pageBytes);
  const text = decode(bytes, contentType);
  const finalUrl = res.url || url.href;
  if (/html/i.test(contentType)) {
    const article = await readArticle(text, finalUrl);
    return { url: finalUrl, title: article.title, markdown: article.markdown, cut };
  }
  return { url: finalUrl, title: finalUrl, markdown: text, cut };
}
