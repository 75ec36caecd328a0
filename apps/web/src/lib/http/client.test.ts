import { UserSchema } from '@assistente/contracts';
import { describe, expect, it, vi } from 'vitest';
import { testApiUser } from '../../test/fakeServices.ts';
import {
  type ApiClientConfig,
  createApiClient,
  parseRetryAfter,
  RETRY_STATUSES,
  type RequestUser,
} from './client.ts';
import { errorMessage, HttpError } from './errors.ts';
import { parsed } from './schemas.ts';

const user: RequestUser = {
  domain: 'acme.com',
  department: 'dep1',
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A body the test does not care to type: the client sends whatever it is given. */
const anyBody = (body: unknown) => body as never;

function setup(responses: (Response | Error)[], config: Partial<ApiClientConfig> = {}) {
  const queue = [...responses];
  const seen: {
    url: URL;
    method: string;
    headers: Headers;
    body: string;
    credentials: RequestCredentials;
  }[] = [];
  const fetch = vi.fn(async (request: Request) => {
    seen.push({
      url: new URL(request.url),
      method: request.method,
      headers: request.headers,
      body: await request.clone().text(),
      credentials: request.credentials,
    });
    const next = queue.shift();
    if (!next) throw new Error('no more responses');
    if (next instanceof Error) throw next;
    return next;
  });
  const sleep = vi.fn(async (_ms: number) => {});
  const client = createApiClient({
    baseUrl: 'https://api.test/',
    context: () => ({ idToken: 'tok', user }),
    fetch,
    sleep,
    readCookie: () => null,
    origin: () => 'https://api.test',
    ...config,
  });
  const call = (i = 0) => {
    const request = seen[i];
    if (!request) throw new Error(`no request ${i}`);
    return request;
  };
  return { client, fetch, sleep, call };
}

const departments = '/api/v1/department';

describe('HTTP client: request', () => {
  it('sends the bearer, userinfo, cache, content type and account headers', async () => {
    const { client, call } = setup([json(200, { ok: true })]);
    await client.GET(departments);
    const { headers } = call();
    expect(headers.get('authorization')).toBe('Bearer tok');
    expect(headers.get('x-endpoint-api-userinfo')).toBe('tok');
    expect(headers.get('cache-control')).toBe('no-cache');
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('domain')).toBe('acme.com');
    expect(headers.get('department')).toBe('dep1');
  });

  it('adds the domain and department query parameters, never who is calling', async () => {
    const { client, call } = setup([json(200, [])]);
    await client.GET(departments, { params: { query: { limit: 10, q: undefined } } });
    const { url } = call();
    expect(url.pathname).toBe('/api/v1/department');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      domain: 'acme.com',
      department: 'dep1',
      limit: '10',
    });
  });

  it('leaves the hints out for a call made as nobody, and passes its credentials mode', async () => {
    const { client, call } = setup([json(200, {})]);
    await client.POST('/api/v1/user_management/login_submit', {
      body: anyBody({ a: 1 }),
      as: null,
      credentials: 'include',
    });
    const { url, headers, credentials } = call();
    expect(url.search).toBe('');
    expect(headers.has('domain')).toBe(false);
    expect(credentials).toBe('include');
  });

  it('names another account in the hints when a call says so, and leaves a hint the call set', async () => {
    const { client, call } = setup([json(200, {}), json(200, [])]);
    await client.GET('/api/v1/domain/{id}', {
      params: { path: { id: 'b.com' } },
      as: { domain: 'b.com', department: 'd9' },
    });
    expect(Object.fromEntries(call(0).url.searchParams)).toEqual({ domain: 'b.com', department: 'd9' });
    expect(call(0).headers.get('domain')).toBe('b.com');
    await client.GET(departments, { params: { query: { domain: undefined } } });
    expect(Object.fromEntries(call(1).url.searchParams)).toEqual({ department: 'dep1' });
  });

  it('sends a declared query parameter (the inviter’s ?locale=) beside the account hints', async () => {
    const { client, call } = setup([json(200, {})]);
    await client.POST('/api/v1/user', { body: anyBody({}), params: { query: { locale: 'en' } } });
    expect(Object.fromEntries(call().url.searchParams)).toEqual({
      locale: 'en',
      domain: 'acme.com',
      department: 'dep1',
    });
  });

  it('sends JSON bodies on write methods', async () => {
    const { client, call } = setup([json(200, {})]);
    await client.PUT('/api/v1/user/{id}', {
      params: { path: { id: 'ana@acme.com' } },
      body: anyBody({ displayName: 'Ana' }),
    });
    expect(call().method).toBe('PUT');
    expect(call().url.pathname).toBe('/api/v1/user/ana%40acme.com');
    expect(call().body).toBe('{"displayName":"Ana"}');
    expect(call().headers.get('content-type')).toBe('application/json');
  });

  it('omits Content-Type on a write without a body', async () => {
    const { client, call } = setup([new Response(null, { status: 204 })]);
    await expect(
      client.DELETE('/api/v1/user/{id}', { params: { path: { id: 'x' } } }),
    ).resolves.toMatchObject({
      data: undefined,
    });
    expect(call().headers.has('content-type')).toBe(false);
  });

  it('sends no account hints without a signed-in account', async () => {
    const { client, call } = setup([json(200, {})], { context: () => ({ idToken: null, user: null }) });
    await client.GET(departments);
    expect(call().headers.has('authorization')).toBe(false);
    expect(call().headers.has('domain')).toBe(false);
    expect(call().url.search).toBe('');
  });

  it('sends the XSRF cookie as X-XSRF-TOKEN to its own origin only', async () => {
    const readCookie = (name: string) => (name === 'XSRF-TOKEN' ? 'xsrf-1' : null);
    const same = setup([json(200, {})], { readCookie });
    await same.client.GET(departments);
    expect(same.call().headers.get('x-xsrf-token')).toBe('xsrf-1');
    const other = setup([json(200, {})], { readCookie, origin: () => 'https://app.test' });
    await other.client.GET(departments);
    expect(other.call().headers.has('x-xsrf-token')).toBe(false);
  });

  it('parses the answer with the contract schema', async () => {
    const apiUser = testApiUser;
    const { client } = setup([json(200, apiUser), json(200, { ...apiUser, role: 'Boss' })]);
    const get = () => client.GET('/api/v1/user/{id}', { params: { path: { id: 'ana' } } });
    await expect(parsed(UserSchema, get())).resolves.toMatchObject({ role: 'Viewer' });
    await expect(parsed(UserSchema, get())).rejects.toThrow('Unexpected response from');
  });
});

describe('HTTP client: retries', () => {
  it('retries idempotent requests on 408, 409, 425, 429, 500, 502, 503, 504', async () => {
    expect(RETRY_STATUSES).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
    for (const status of RETRY_STATUSES) {
      const { client, fetch } = setup([json(status, {}), json(200, { ok: 1 })]);
      await expect(client.GET(departments)).resolves.toMatchObject({ data: { ok: 1 } });
      expect(fetch).toHaveBeenCalledTimes(2);
    }
  });

  it('does not retry other statuses', async () => {
    for (const status of [400, 401, 403, 404, 422, 501]) {
      const { client, fetch } = setup([json(status, {}), json(200, {})]);
      await expect(client.GET(departments)).rejects.toBeInstanceOf(HttpError);
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });

  it('does not retry POST (not idempotent)', async () => {
    const { client, fetch } = setup([json(503, {}), json(200, {})]);
    await expect(client.POST(departments, { body: anyBody({}) })).rejects.toMatchObject({ status: 503 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('is bounded, with exponential backoff', async () => {
    const { client, fetch, sleep } = setup([json(500, {}), json(500, {}), json(500, {}), json(200, {})]);
    await expect(client.GET(departments)).rejects.toMatchObject({ status: 500 });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([500, 1000]);
  });

  it('waits as long as Retry-After says', async () => {
    const { client, sleep } = setup([json(429, {}, { 'retry-after': '3' }), json(200, {})]);
    await client.GET(departments);
    expect(sleep).toHaveBeenCalledWith(3000);
  });

  it('gives up instead of waiting for a Retry-After beyond a minute', async () => {
    const { client, fetch } = setup([json(503, {}, { 'retry-after': '3600' }), json(200, {})]);
    await expect(client.GET(departments)).rejects.toMatchObject({ status: 503 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('retries network failures of idempotent requests', async () => {
    const { client, fetch } = setup([new TypeError('Failed to fetch'), json(200, { ok: 1 })]);
    await expect(client.GET(departments)).resolves.toMatchObject({ data: { ok: 1 } });
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
    await expect(client.POST(departments, { body: anyBody({}) })).resolves.toMatchObject({ data: { id: 1 } });
    await expect(client.POST(departments, { body: anyBody({}) })).rejects.toMatchObject({ status: 599 });
  });

  it('tells the page’s caller about a 401 to a call that carried a token', async () => {
    const onUnauthorized = vi.fn();
    const { client } = setup([json(401, {}), json(401, {})], { onUnauthorized });
    await expect(client.GET(departments)).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    const anonymous = setup([json(401, {})], {
      onUnauthorized,
      context: () => ({ idToken: null, user: null }),
    });
    await expect(anonymous.client.GET(departments)).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it("shows the server's error.message first", async () => {
    const { client } = setup([
      json(404, { error: { status: 404, code: 'USER_NOT_FOUND', message: 'User not found' } }),
    ]);
    const error = await client
      .GET('/api/v1/user/{id}', { params: { path: { id: 'x' } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(errorMessage(error, 'fallback')).toBe('User not found');
    expect((error as HttpError).message).toBe('User not found');
  });

  it('else "Request to {url} with method {METHOD} failed with status {status}"', async () => {
    const { client } = setup([new Response('<html>bad gateway</html>', { status: 403 })]);
    const error = await client
      .DELETE('/api/v1/user/{id}', { params: { path: { id: 'x' } } })
      .catch((e: unknown) => e);
    expect(errorMessage(error, 'fallback')).toBe(
      'Request to https://api.test/api/v1/user/x with method DELETE failed with status 403',
    );
  });

  it("else the error's own message, else the fallback", async () => {
    const { client } = setup([new TypeError('Failed to fetch')]);
    const error = await client.POST(departments, { body: anyBody({}) }).catch((e: unknown) => e);
    expect(errorMessage(error, 'fallback')).toBe('Failed to fetch');
    expect(errorMessage(new Error(''), 'fallback')).toBe('fallback');
    expect(errorMessage('weird', 'fallback')).toBe('fallback');
  });
});
