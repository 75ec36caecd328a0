import { getCookie } from '../storage/cookies.ts';
import { HttpError, type HttpMethod, ResponseValidationError } from './errors.ts';

/** Statuses worth another attempt (docs/ARCHITECTURE.md#calling-the-api). */
export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];
/** Only these are retried: repeating them cannot apply a change twice. */
const IDEMPOTENT_METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'PUT', 'DELETE'];
const DEFAULT_RETRIES = 2;
const RETRY_BASE_DELAY_MS = 500;
const RETRY_MAX_DELAY_MS = 8_000;
/** A `Retry-After` longer than this is not waited for: the error is returned instead. */
const RETRY_AFTER_LIMIT_MS = 60_000;
const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Anything with zod's `parse`: the contracts' schemas. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

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

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<T> {
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Parses (and types) the response. */
  schema?: ResponseSchema<T>;
  /** Adds the `domain` and `department` query parameters; on by default. */
  userParams?: boolean;
  credentials?: RequestCredentials;
  /** Extra attempts for idempotent requests failing with a retryable status or a network error. */
  retry?: number;
  /** Milliseconds; no timeout by default (docs/ARCHITECTURE.md#calling-the-api). */
  timeout?: number;
  signal?: AbortSignal;
  /** Overrides the session's account, e.g. while the session is being established. */
  user?: RequestUser | null;
  /** Sees the successful response's status and headers (e.g. the paging headers of a list). */
  onResponse?: (response: { status: number; headers: Headers }) => void;
}

export interface HttpClientConfig {
  baseUrl: () => string;
  context: () => RequestContext | Promise<RequestContext>;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  readCookie?: (name: string) => string | null;
  /** The page's origin; XSRF tokens are only sent to it. */
  origin?: () => string;
  /** A 401 came back for a request that carried a token: the session may have ended elsewhere. */
  onUnauthorized?: () => void;
}

export interface HttpClient {
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  post<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  put<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  patch<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
}

const WRITE_METHODS: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Seconds or an HTTP date, as milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff for attempt 0, 1, 2…: 500 ms, 1 s, 2 s… capped at 8 s. */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** attempt, RETRY_MAX_DELAY_MS);
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function buildUrl(base: string, path: string, query: Record<string, QueryValue>): string {
  const joined = /^https?:\/\//.test(path)
    ? path
    : `${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  const params = Object.entries(query).filter(
    (entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== null,
  );
  if (params.length === 0) return joined;
  const search = new URLSearchParams(params.map(([k, v]) => [k, String(v)]));
  return `${joined}${joined.includes('?') ? '&' : '?'}${search.toString()}`;
}

function isSameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url, origin).origin === origin;
  } catch {
    return false;
  }
}

async function readBody(response: Response, method: HttpMethod): Promise<unknown> {
  if (method === 'HEAD' || response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The generic client of every product call (docs/ARCHITECTURE.md#calling-the-api): bearer and userinfo headers, the user's
 * Domain/Department hints, JSON bodies, bounded retries of idempotent requests, typed responses.
 */
export function createHttpClient(config: HttpClientConfig): HttpClient {
  const fetchImpl = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const sleep = config.sleep ?? defaultSleep;
  const readCookie = config.readCookie ?? ((name: string) => getCookie(name));
  const origin = config.origin ?? (() => (typeof location === 'undefined' ? '' : location.origin));

  async function request<T>(method: HttpMethod, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const context = await config.context();
    const user = options.user === undefined ? context.user : options.user;
    const base = config.baseUrl();
    const plainUrl = buildUrl(base, path, {});
    const query: Record<string, QueryValue> = {};
    if (options.userParams !== false && user) {
      query.domain = user.domain;
      query.department = user.department;
    }
    Object.assign(query, options.query);
    const url = buildUrl(base, path, query);

    const headers = new Headers();
    headers.set('Cache-Control', 'no-cache');
    // A bodiless write with a JSON content type is refused by strict servers (an empty JSON body).
    const hasBody = options.body !== undefined;
    if (hasBody || !WRITE_METHODS.includes(method)) headers.set('Content-Type', 'application/json');
    headers.set('Accept', 'application/json');
    if (context.idToken) {
      headers.set('Authorization', `Bearer ${context.idToken}`);
      headers.set('x-endpoint-api-userinfo', context.idToken);
    }
    if (user) {
      headers.set('Domain', user.domain);
      headers.set('Department', user.department);
    }
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf && isSameOrigin(url, origin())) headers.set(XSRF_HEADER, xsrf);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);

    const body = hasBody && method !== 'GET' && method !== 'HEAD' ? JSON.stringify(options.body) : undefined;
    const retries = IDEMPOTENT_METHODS.includes(method) ? (options.retry ?? DEFAULT_RETRIES) : 0;

    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      const abortFromCaller = () => controller.abort(options.signal?.reason);
      options.signal?.addEventListener('abort', abortFromCaller, { once: true });
      let timedOut = false;
      const timer =
        options.timeout !== undefined
          ? setTimeout(() => {
              timedOut = true;
              controller.abort();
            }, options.timeout)
          : undefined;

      let response: Response;
      try {
        response = await fetchImpl(url, {
          method,
          headers,
          body,
          credentials: options.credentials,
          signal: controller.signal,
        });
      } catch (cause) {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', abortFromCaller);
        if (options.signal?.aborted) throw cause;
        if (attempt < retries && !timedOut) {
          await sleep(retryDelay(attempt));
          continue;
        }
        throw new HttpError({
          url: plainUrl,
          method,
          status: null,
          message: timedOut
            ? `Request to ${plainUrl} with method ${method} timed out after ${options.timeout} ms`
            : cause instanceof Error && cause.message
              ? cause.message
              : undefined,
          cause,
        });
      }
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abortFromCaller);

      if (response.status >= 200 && response.status <= 299) {
        options.onResponse?.({ status: response.status, headers: response.headers });
        const data = await readBody(response, method);
        if (!options.schema) return data as T;
        try {
          return options.schema.parse(data);
        } catch (cause) {
          throw new ResponseValidationError(plainUrl, cause);
        }
      }

      if (attempt < retries && RETRY_STATUSES.includes(response.status)) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        if (retryAfter === null || retryAfter <= RETRY_AFTER_LIMIT_MS) {
          await response.body?.cancel().catch(() => undefined);
          await sleep(retryAfter ?? retryDelay(attempt));
          continue;
        }
      }
      if (response.status === 401 && context.idToken) config.onUnauthorized?.();
      throw new HttpError({
        url: plainUrl,
        method,
        status: response.status,
        data: await readBody(response, method),
      });
    }
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, options) => request('POST', path, options),
    put: (path, options) => request('PUT', path, options),
    patch: (path, options) => request('PATCH', path, options),
    delete: (path, options) => request('DELETE', path, options),
  };
}
