// Confluence Cloud REST API v2 (https://developer.atlassian.com/cloud/confluence/rest/v2/): spaces by
// key, a space's pages (id, title, version: no bodies), chosen pages' storage-format bodies by id,
// cursor paging through `_links.next`.

import type { KnowledgeFailure } from '@assistente/contracts';
import { addressProblemOf } from '../../lib/ssrf.ts';

type FetchLike = typeof globalThis.fetch;

export interface ConfluenceSpace {
  id: string;
  key: string;
  name: string;
}

export interface ConfluencePage {
  id: string;
  title: string;
  version: number;
  /** The space it is in (absent when Confluence did not say). */
  spaceId?: string;
  /** Storage-format XHTML; absent when the body was not asked for. */
  body?: string;
  /** The page's address for people (`{site}/wiki{webui}`). */
  url: string;
}

/** Confluence refused or failed: `message` for API clients and logs, `reason` for the Admin's screen. */
export class ConfluenceError extends Error {
  override name = 'ConfluenceError';
  constructor(
    message: string,
    readonly reason: KnowledgeFailure,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** What an HTTP status from Confluence means for the Admin. */
function reasonOfStatus(status: number): KnowledgeFailure {
  if (status === 401) return { kind: 'unauthorised' };
  if (status === 403) return { kind: 'forbidden' };
  if (status === 429) return { kind: 'rate_limited' };
  return { kind: 'http_status', status };
}

export interface ConfluenceClientOptions {
  /** `https://site.atlassian.net` (without `/wiki`). */
  site: string;
  email: string;
  apiToken: string;
  /** The SSRF-guarded fetch (the base URL is an Admin's). */
  fetch: FetchLike;
  /** Longest wait a `Retry-After` may ask for before the sync gives up (ms). */
  maxRetryWaitMs?: number;
  /** Tries of one request answered 429. */
  maxRetries?: number;
  signal?: AbortSignal;
}

interface Paged<T> {
  results?: T[];
  _links?: { next?: string };
}
interface RawPage {
  id?: unknown;
  title?: unknown;
  spaceId?: unknown;
  version?: { number?: unknown };
  body?: { storage?: { value?: unknown } };
  _links?: { webui?: unknown };
}

/** Results per request of a listing without bodies: the most the API's `limit` allows. */
const LIST_LIMIT = 250;
/**
 * Pages whose bodies one request asks for (the API takes up to 250 ids): bodies can be large, so
 * fewer, as the listing with bodies always asked for.
 */
const BODIES_PER_REQUEST = 100;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** Seconds or an HTTP date (RFC 9110 §10.2.3), as milliseconds from now. */
function retryAfterMs(header: string | null): number {
  if (!header) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : 1000;
}

/** A client for one site and account. */
export function confluenceClient(opts: ConfluenceClientOptions) {
  const auth = `Basic ${Buffer.from(`${opts.email}:${opts.apiToken}`).toString('base64')}`;
  const maxRetries = opts.maxRetries ?? 5;
  const maxWait = opts.maxRetryWaitMs ?? 60_000;

  async function get<T>(pathOrUrl: string): Promise<T> {
    // `_links.next` is a path on the site (`/wiki/api/v2/…?cursor=…`); never follow it elsewhere.
    const url = new URL(pathOrUrl, opts.site);
    if (url.origin !== new URL(opts.site).origin)
      throw new ConfluenceError('Confluence sent a link to another site', { kind: 'failed' });
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await opts.fetch(url, {
          headers: { authorization: auth, accept: 'application/json' },
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        const address = addressProblemOf(err);
        throw new ConfluenceError(`Could not reach Confluence: ${(err as Error).message}`, {
          kind: 'unreachable',
          ...(address ? { address } : {}),
          host: url.hostname,
        });
      }
      if (res.status === 429 && attempt < maxRetries) {
        const wait = retryAfterMs(res.headers.get('retry-after'));
        await res.body?.cancel().catch(() => {});
        if (wait > maxWait)
          throw new ConfluenceError(
            'Confluence is rate limiting this site; try again later',
            reasonOfStatus(429),
            429,
          );
        await sleep(wait, opts.signal);
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        if (res.status === 401 || res.status === 403) {
          throw new ConfluenceError(
            'Confluence refused the e-mail and API token',
            reasonOfStatus(res.status),
            res.status,
          );
        }
        if (res.status === 429)
          throw new ConfluenceError(
            'Confluence is rate limiting this site; try again later',
            reasonOfStatus(429),
            429,
          );
        throw new ConfluenceError(
          `Confluence answered HTTP ${res.status}`,
          reasonOfStatus(res.status),
          res.status,
        );
      }
      return (await res.json()) as T;
    }
  }

  /** Every item of a cursor-paged list. */
  async function* pages<T>(first: string): AsyncGenerator<T[]> {
    let next: string | undefined = first;
    while (next) {
      const page: Paged<T> = await get<Paged<T>>(next);
      yield page.results ?? [];
      next = page._links?.next;
    }
  }

  const toPage = (raw: RawPage): ConfluencePage | undefined => {
    if (typeof raw.id !== 'string' && typeof raw.id !== 'number') return undefined;
    const webui = typeof raw._links?.webui === 'string' ? raw._links.webui : `/pages/${raw.id}`;
    const body = raw.body?.storage?.value;
    const spaceId =
      typeof raw.spaceId === 'string' || typeof raw.spaceId === 'number' ? raw.spaceId : undefined;
    return {
      id: String(raw.id),
      title: typeof raw.title === 'string' && raw.title.trim() ? raw.title : `Page ${raw.id}`,
      version: typeof raw.version?.number === 'number' ? raw.version.number : 0,
      ...(spaceId !== undefined ? { spaceId: String(spaceId) } : {}),
      ...(typeof body === 'string' ? { body } : {}),
      url: `${opts.site}/wiki${webui}`,
    };
  };

  return {
    /** The spaces with these keys that the account can read. */
    async spaces(keys: readonly string[]): Promise<ConfluenceSpace[]> {
      const out: ConfluenceSpace[] = [];
      const query = new URLSearchParams({ keys: keys.join(','), limit: '250' });
      for await (const batch of pages<{ id?: unknown; key?: unknown; name?: unknown }>(
        `/wiki/api/v2/spaces?${query}`,
      )) {
        for (const s of batch) {
          if (typeof s.key !== 'string' || (typeof s.id !== 'string' && typeof s.id !== 'number')) continue;
          out.push({ id: String(s.id), key: s.key, name: typeof s.name === 'string' ? s.name : s.key });
        }
      }
      return out;
    },

    /**
     * A space's pages without their bodies, a batch per API page: the light listing a sync
     * counts and compares versions with (the API's largest page, 250, for the fewest requests).
     */
    async *pages(spaceId: string): AsyncGenerator<ConfluencePage[]> {
      for await (const batch of pages<RawPage>(
        `/wiki/api/v2/spaces/${encodeURIComponent(spaceId)}/pages?limit=${LIST_LIMIT}`,
      )) {
        yield batch.flatMap((raw) => toPage(raw) ?? []);
      }
    },

    /**
     * These pages with their storage-format bodies, a batch per API page (`GET /pages?id=…`, at
     * most BODIES_PER_REQUEST ids a request). A page deleted since it was listed is not answered.
     */
    async *bodies(ids: readonly string[]): AsyncGenerator<ConfluencePage[]> {
      for (let from = 0; from < ids.length; from += BODIES_PER_REQUEST) {
        const query = new URLSearchParams({
          id: ids.slice(from, from + BODIES_PER_REQUEST).join(','),
          'body-format': 'storage',
          limit: String(BODIES_PER_REQUEST),
        });
        for await (const batch of pages<RawPage>(`/wiki/api/v2/pages?${query}`)) {
          yield batch.flatMap((raw) => toPage(raw) ?? []);
        }
      }
    },
  };
}

export type ConfluenceClient = ReturnType<typeof confluenceClient>;
