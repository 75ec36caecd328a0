import { UserSchema } from '@assistente/contracts';
import { describe, expect, it, vi } from 'vitest';
import {
  createHttpClient,
  type HttpClientConfig,
  parseRetryAfter,
  RETRY_STATUSES,
  type RequestUser,
} from './client.ts';
import { errorMessage, HttpError } from './errors.ts';

const user: RequestUser = {
  domain: 'acme.com',
  department: 'dep1',
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

function setup(responses: (Response | Error)[], config: Partial<HttpClientConfig> = {}) {
  const queue = [...responses];
  const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    const next = queue.shift();
    if (!next) throw new Error('no more responses');
    if (next instanceof Error) throw next;
    return next;
  });
  const sleep = vi.fn(async (_ms: number) => {});
  const client = createHttpClient({
    baseUrl: () => 'https://api.test/',
    context: () => ({ idToken: 'tok', user }),
    fetch: fetch as unknown as typeof globalThis.fetch,
    sleep,
    readCookie: () => null,
    origin: () => 'https://api.test',
    ...config,
  });
  const call = (i = 0) => {
    const [url, init] = fetch.mock.calls[i] ?? [];
    return { url: new URL(String(url)), init: init ?? {}, headers: new Headers(init?.headers) };
  };
  return { client, fetch, sleep, call };
}

describe('HTTP client: request', () => {
  it('sends the bearer, userinfo, cache, content type and account headers', async () => {
    const { client, call } = setup([json(200, { ok: true })]);
    await client.get('/api/v1/department');
    const { headers } = call();
    expect(headers.get('authorization')).toBe('Bearer tok');
    expect(headers.get('x-endpoint-api-userinfo')).toBe('tok');
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('domain')).toBe('acme.com');
    expect(headers.get('department')).toBe('dep1');
  });

  it('adds the domain and department query parameters, never who is calling', async () => {
    const { client, call } = setup([json(200, [])]);
    await client.get('/api/v1/department', { query: { limit: 10, q: undefined } });
    const { url } = call();
    expect(url.pathname).toBe('/api/v1/department');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      domain: 'acme.com',
      department: 'dep1',
      limit: '10',
    });
  });

  it('leaves the query parameters out when turned off', async () => {
    const { client, call } = setup([json(200, {})]);
    await client.post('/api/v1/user_management/login_submit', {
      body: { a: 1 },
      userParams: false,
      credentials: 'include',
    });
    const { url, init } = call();
    expect(url.search).toBe('');
    expect(init.credentials).toBe('include');
  });

  it('sends JSON bodies on write methods', async () => {
    const { client, call } = setup([json(200, {})]);
    await client.put('/api/v1/user/ana%40acme.com', { body: { displayName: 'Ana' } });
    expect(call().init.method).toBe('PUT');
    expect(call().init.body).toBe('{"displayName":"Ana"}');
  });

  it('omits Content-Type on a write without a body', async () => {
    const { client, call } = setup([new Response(null, { status: 204 })]);
    await expect(client.delete('/api/v1/user/x')).resolves.toBeUndefined();
    expect(call().headers.has('content-type')).toBe(false);
  });

  it('sends no account hints without a signed-in account', async () => {
    const { client, call } = setup([json(200, {})], { context: () => ({ idToken: null, user: null }) });
    await client.get('/x');
    expect(call().headers.has('authorization')).toBe(false);
    expect(call().headers.has('domain')).toBe(false);
    expect(call().url.search).toBe('');
  });

  it('sends the XSRF cookie as X-XSRF-TOKEN to its own origin only', async () => {
    const readCookie = (name: string) => (name === 'XSRF-TOKEN' ? 'xsrf-1' : null);
    const same = setup([json(200, {})], { readCookie });
    await same.client.get('/x');
    expect(same.call().headers.get('x-xsrf-token')).toBe('xsrf-1');
    const other = setup([json(200, {})], { readCookie, origin: () => 'https://app.test' });
    await other.client.get('/x');
    expect(other.call().headers.has('x-xsrf-token')).toBe(false);
  });

  it('parses the answer with the contract schema', async () => {
    const apiUser = {
      _id: 'ana@acme.com',
      active: true,
      displayName: 'Ana',
      email: 'ana@acme.com',
      domain: 'acme.com',
      department: 'dep1',
      role: 'Viewer',
      type: 'user',
      creator: { name: 'x', email: 'x@acme.com' },
      eula: {
        accept: true,
        timestamp: null,
        version: 'v1',
        pendingRevision: false,
        pendingTimestamp: null,
        isPrivacyPolicy: true,
      },
    };
    const { client } = setup([json(200, apiUser), json(200, { ...apiUser, role: 'Boss' })]);
    await expect(client.get('/api/v1/user/ana', { schema: UserSchema })).resolves.toMatchObject({
      role: 'Viewer',
    });
    await expect(client.get('/api/v1/user/ana', { schema: UserSchema })).rejects.toThrow(
      'Unexpected response from',
    );
  });
});

describe('HTTP client: retries', () => {
  it('retries idempotent requests on 408, 409, 425, 429, 500, 502, 503, 504', async () => {
    expect(RETRY_STATUSES).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
    for (const status of RETRY_STATUSES) {
      const { client, fetch } = setup([json(status, {}), json(200, { ok: 1 })]);
      await expect(client.get('/x')).resolves.toEqual({ ok: 1 });
      expect(fetch).toHaveBeenCalledTimes(2);
    }
  });

  it('does not retry other statuses', async () => {
    for (const status of [400, 401, 403, 404, 422, 501]) {
      const { client, fetch } = setup([json(status, {}), json(200, {})]);
      await expect(client.get('/x')).rejects.toBeInstanceOf(HttpError);
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });

  it('does not retry POST (not idempotent)', async () => {
    const { client, fetch } = setup([json(503, {}), json(200, {})]);
    await expect(client.post('/x', { body: {} })).rejects.toMatchObject({ status: 503 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('is bounded, with exponential backoff', async () => {
    const { client, fetch, sleep } = setup([json(500, {}), json(500, {}), json(500, {}), json(200, {})]);
    await expect(client.get('/x')).rejects.toMatchObject({ status: 500 });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([500, 1000]);
  });

  it('waits as long as Retry-After says', async () => {
    const { client, sleep } = setup([json(429, {}, { 'retry-after': '3' }), json(200, {})]);
    await client.get('/x');
    expect(sleep).toHaveBeenCalledWith(3000);
  });

  it('gives up instead of waiting for a Retry-After beyond a minute', async () => {
    const { client, fetch } = setup([json(503, {}, { 'retry-after': '3600' }), json(200, {})]);
    await expect(client.get('/x')).rejects.toMatchObject({ status: 503 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('retries network failures of idempotent requests', async () => {
    const { client, fetch } = setup([new TypeError('Failed to fetch'), json(200, { ok: 1 })]);
    await expect(client.get('/x')).resolves.toEqual({ ok: 1 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('reads Retry-After dates', () => {
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(5000);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('HTTP client: errors', () => {
  it('treats 200–299 as success and 400–599 as errors', async () => {
    const { client } = setup([json(201, { id: 1 }), json(599, {})]);
    await expect(client.post('/x', { body: {} })).resolves.toEqual({ id: 1 });
    await expect(client.post('/x', { body: {} })).rejects.toMatchObject({ status: 599 });
  });

  it("shows the server's error.message first", async () => {
    const { client } = setup([
      json(404, { error: { status: 404, code: 'USER_NOT_FOUND', message: 'User not found' } }),
    ]);
    const error = await client.get('/api/v1/user/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(errorMessage(error, 'fallback')).toBe('User not found');
    expect((error as HttpError).message).toBe('User not found');
  });

  it('else "Request to {url} with method {METHOD} failed with status {status}"', async () => {
    const { client } = setup([new Response('<html>bad gateway</html>', { status: 403 })]);
    const error = await client.delete('/api/v1/user/x').catch((e: unknown) => e);
    expect(errorMessage(error, 'fallback')).toBe(
      'Request to https://api.test/api/v1/user/x with method DELETE failed with status 403',
    );
  });

  it("else the error's own message, else the fallback", async () => {
    const { client } = setup([new TypeError('Failed to fetch')]);
    const error = await client.post('/x', { body: {} }).catch((e: unknown) => e);
    expect(errorMessage(error, 'fallback')).toBe('Failed to fetch');
    expect(errorMessage(new Error(''), 'fallback')).toBe('fallback');
    expect(errorMessage('weird', 'fallback')).toBe('fallback');
  });

  it('has no timeout by default, and aborts when one is given', async () => {
    const never = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    const client = createHttpClient({
      baseUrl: () => 'https://api.test',
      context: () => ({ idToken: null, user: null }),
      fetch: never as typeof fetch,
      sleep: async () => {},
    });
    await expect(client.post('/x', { body: {}, timeout: 10 })).rejects.toThrow(
      'Request to https://api.test/x with method POST timed out after 10 ms',
    );
  });
});
