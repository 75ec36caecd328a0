import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { getCookie } from '../storage/cookies.ts';
import { HttpError, type HttpMethod } from './errors.ts';
import type { paths } from './openapi.gen.ts';

/** A typed client of one product service: its paths and answers come from the OpenAPI document. */
export type ApiClient = Client<paths>;

/** Statuses worth another attempt (docs/ARCHITECTURE.md#calling-the-api). */
export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];
/** Only these are retried: repeating them cannot apply a change twice. */
const IDEMPOTENT_METHODS: readonly string[] = ['GET', 'HEAD', 'PUT', 'DELETE'];
const DEFAULT_RETRIES = 2;
const RETRY_BASE_DELAY_MS = 500;
const RETRY_MAX_DELAY_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error is returned instead. */
const RETRY_AFTER_LIMIT_MS = 60_000;
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

/**
 * The caller's account as requests show it: only the Domain/Department hints. Who is calling is
 * the token's to say; the person's e-mail never goes into a URL (proxies and access logs keep URLs).
 */
export interface RequestUser {
  domain: string;
  department: string;
}
export interface RequestContext {
  idToken: string | null;
  user: RequestUser | null;
}

/**
 * What a call may add to openapi-fetch's options; openapi-fetch leaves such extra options on the
 * `Request` the middleware sees.
 */
interface CallOptions {
  /** The account the hints name instead of the session's (null: none), e.g. while a session is being established. */
  as?: RequestUser | null;
  /** Extra attempts for an idempotent request; 0 when a 409 is an answer to show at once. */
  retry?: number;
  credentials?: RequestCredentials;
}

export interface ApiClientConfig {
  baseUrl: string;
  context: () => RequestContext | Promise<RequestContext>;
  fetch?: (request: Request) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
  readCookie?: (name: string) => string | null;
  /** The page's origin; XSRF tokens are only sent to it. */
  origin?: () => string;
  /** A 401 came back for a request that carried a token: the session may have ended elsewhere. */
  onUnauthorized?: () => void;
}

/** Seconds or an HTTP date, as milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff for attempt 0, 1, 2…: 500 ms, 1 s, 2 s… capped at 8 s. */
function retryDelay(attempt: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** attempt, RETRY_MAX_DELAY_MS);
}

/**
 * The headers every product call carries (docs/ARCHITECTURE.md#calling-the-api): the bearer and
 * userinfo token, the account's Domain/Department, no caching. Uploads and downloads send them too.
 */
export function callerHeaders(context: RequestContext): Record<string, string> {
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache' };
  if (context.idToken) {
    headers.Authorization = `Bearer ${context.idToken}`;
    headers['x-endpoint-api-userinfo'] = context.idToken;
  }
  if (context.user) {
    headers.Domain = context.user.domain;
    headers.Department = context.user.department;
  }
  return headers;
}

/** Adds the `domain`/`department` query hints a call did not set itself (an explicit `undefined` counts as set). */
export function withUserHints(url: URL, user: RequestUser | null, own: Record<string, unknown> = {}): URL {
  if (!user) return url;
  const hints: [string, string][] = [
    ['domain', user.domain],
    ['department', user.department],
  ];
  for (const [name, value] of hints) if (!(name in own)) url.searchParams.set(name, value);
  return url;
}

function isSameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url, origin).origin === origin;
  } catch {
    return false;
  }
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const plainUrl = (request: Request) => request.url.split('?')[0] ?? request.url;
/** How many retries each request may take (its call's `retry`), by the Request the transport sees. */
const retriesOf = new WeakMap<Request, number>();

/** Who is calling: token, hints, XSRF and the call's own options, on a fresh Request. */
function callerMiddleware(config: ApiClientConfig): Middleware {
  const readCookie = config.readCookie ?? ((name: string) => getCookie(name));
  const origin = config.origin ?? (() => (typeof location === 'undefined' ? '' : location.origin));
  return {
    async onRequest({ request, params }) {
      const call = request as Request & CallOptions;
      const context = await config.context();
      const user = call.as === undefined ? context.user : call.as;
      const url = withUserHints(new URL(request.url), user, params.query);
      const headers = new Headers(request.headers);
      for (const [name, value] of Object.entries(callerHeaders({ idToken: context.idToken, user })))
        headers.set(name, value);
      headers.set('Accept', 'application/json');
      const xsrf = readCookie(XSRF_COOKIE);
      if (xsrf && isSameOrigin(url.href, origin())) headers.set(XSRF_HEADER, xsrf);
      const body = request.body ? await request.text() : undefined;
      const next = new Request(url, {
        method: request.method,
        headers,
        body,
        credentials: call.credentials ?? request.credentials,
        signal: request.signal,
      });
      retriesOf.set(next, IDEMPOTENT_METHODS.includes(request.method) ? (call.retry ?? DEFAULT_RETRIES) : 0);
      return next;
    },
    async onResponse({ request, response }) {
      if (response.ok) return undefined;
      if (response.status === 401 && request.headers.has('authorization')) config.onUnauthorized?.();
      throw new HttpError({
        url: plainUrl(request),
        method: request.method as HttpMethod,
        status: response.status,
        data: await readBody(response),
      });
    },
    onError({ request, error }) {
      if (request.signal.aborted || error instanceof HttpError) return error as Error;
      return new HttpError({
        url: plainUrl(request),
        method: request.method as HttpMethod,
        status: null,
        message: error instanceof Error && error.message ? error.message : undefined,
        cause: error,
      });
    },
  };
}

/** Bounded retries of idempotent requests on a network failure or a retryable status. */
function retryingFetch(config: ApiClientConfig): (request: Request) => Promise<Response> {
  const fetchImpl = config.fetch ?? ((request: Request) => fetch(request));
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request) => {
    const retries = retriesOf.get(request) ?? 0;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetchImpl(attempt < retries ? request.clone() : request);
      } catch (cause) {
        if (request.signal.aborted || attempt >= retries) throw cause;
        await sleep(retryDelay(attempt));
        continue;
      }
      if (attempt < retries && RETRY_STATUSES.includes(response.status)) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        if (retryAfter === null || retryAfter <= RETRY_AFTER_LIMIT_MS) {
          await response.body?.cancel().catch(() => undefined);
          await sleep(retryAfter ?? retryDelay(attempt));
          continue;
        }
      }
      return response;
    }
  };
}

/**
 * The one client of a product service (docs/ARCHITECTURE.md#calling-the-api): openapi-fetch typed
 * by the server's OpenAPI document, with middleware that says who is calling, retries what may be
 * retried and turns every failure into an `HttpError`.
 */
export function createApiClient(config: ApiClientConfig): ApiClient {
  // Relative to the page when the service shares its origin (a Request needs an absolute URL).
  const base =
    typeof location === 'undefined' ? config.baseUrl : new URL(config.baseUrl || '/', location.origin).href;
  const client = createClient<paths>({ baseUrl: base.replace(/\/+$/, ''), fetch: retryingFetch(config) });
  client.use(callerMiddleware(config));
  return client;
}

/** Anything with zod's `parse`: the contracts' schemas. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}
