import { BuiltinLimits } from '@assistente/contracts';
import type { StoredWebSearch } from '../../../db/schema/index.ts';
import type { FetchLike } from '../../../lib/ssrf.ts';

/*
 * `web_search` (docs/ARCHITECTURE.md#built-in-tools): one query to the domain's search service,
 * its results as title, address and snippet. Three protocols: SearXNG's JSON API, Brave's Web
 * Search API and Tavily's search API, each reached through the SSRF guard.
 */

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A search the service refused or could not answer, in words the model and the person can read. */
export class SearchFailed extends Error {
  override name = 'SearchFailed';
}

const BRAVE_URL = 'https://api.search.brave.com/res/v1/web/search';
const TAVILY_URL = 'https://api.tavily.com/search';

/** Snippets come with markup (Brave's `<strong>`) and entities: plain words for the model. */
const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The results of any of the three answers that look like results; the rest is dropped. */
function resultsOf(items: unknown, snippetField: 'content' | 'description'): SearchResult[] {
  if (!Array.isArray(items)) return [];
  const out: SearchResult[] = [];
  for (const item of items as Array<Record<string, unknown>>) {
    const url = typeof item?.url === 'string' ? item.url : '';
    if (!/^https?:\/\//i.test(url)) continue;
    const title = typeof item.title === 'string' && item.title.trim() ? plain(item.title) : url;
    const snippet = typeof item[snippetField] === 'string' ? plain(item[snippetField] as string) : '';
    out.push({ title, url, snippet: snippet.slice(0, 600) });
    if (out.length >= BuiltinLimits.searchResults) break;
  }
  return out;
}

/** SearXNG's address of its search: the instance's base, or its `/search` already. */
function searxngUrl(base: string, query: string): string {
  const url = new URL(base);
  if (!url.pathname.replace(/\/+$/, '').endsWith('/search')) {
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/search`;
  }
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  return url.href;
}

async function failureOf(res: Response, provider: StoredWebSearch['provider']): Promise<SearchFailed> {
  await res.body?.cancel().catch(() => {});
  if (provider === 'searxng' && res.status === 403) {
    return new SearchFailed('The SearXNG instance refuses JSON: add `json` to its search formats.');
  }
  if (res.status === 401 || res.status === 403) {
    return new SearchFailed(`The ${provider} search service refused the API key (${res.status}).`);
  }
  if (res.status === 429)
    return new SearchFailed(`The ${provider} search service is rate limiting; try later.`);
  return new SearchFailed(`The ${provider} search service answered ${res.status}.`);
}

/**
 * One search. `apiKey` is the unsealed key (Brave, Tavily). Throws SearchFailed for an answer that
 * is not results; a connection refused by the SSRF guard or a timeout throws as fetch does.
 */
export async function searchWeb(
  fetch: FetchLike,
  settings: StoredWebSearch,
  apiKey: string | null,
  query: string,
  signal: AbortSignal,
): Promise<SearchResult[]> {
  const q = query.trim().slice(0, BuiltinLimits.queryMax);
  const limit = AbortSignal.any([signal, AbortSignal.timeout(BuiltinLimits.searchTimeoutMs)]);
  let res: Response;
  if (settings.provider === 'searxng') {
    res = await fetch(searxngUrl(settings.url ?? '', q), {
      headers: { accept: 'application/json' },
      signal: limit,
    });
  } else if (settings.provider === 'brave') {
    const url = new URL(settings.url ?? BRAVE_URL);
    url.searchParams.set('q', q);
    url.searchParams.set('count', String(BuiltinLimits.searchResults));
    res = await fetch(url.href, {
      headers: { accept: 'application/json', 'x-subscription-token': apiKey ?? '' },
      signal: limit,
    });
  } else {
    res = await fetch(settings.url ?? TAVILY_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey ?? ''}` },
      body: JSON.stringify({ query: q, max_results: BuiltinLimits.searchResults }),
      signal: limit,
    });
  }
  if (!res.ok) throw await failureOf(res, settings.provider);
  let body: Record<string, unknown>;
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    throw new SearchFailed(`The ${settings.provider} search service did not answer in JSON.`);
  }
  if (settings.provider === 'brave') {
    return resultsOf((body.web as { results?: unknown } | undefined)?.results, 'description');
  }
  return resultsOf(body.results, 'content');
}
