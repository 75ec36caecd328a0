import { UserSchema } from '@assistente/contracts';
import { describe, expect, it, vi } from 'vitest';
import { testApiUser } from '../../test/fakeServices.ts';
import { createApiClient } from './client.ts';
import { page } from './paging.ts';

const user = testApiUser;

function client(headers: Record<string, string>) {
  const fetch = vi.fn(
    async (_request: Request) =>
      new Response(JSON.stringify([user]), {
        status: 200,
        headers: { 'content-type': 'application/json', ...headers },
      }),
  );
  const http = createApiClient({
    baseUrl: 'https://api.test',
    context: () => ({
      idToken: 't',
      user: { domain: 'acme.com', department: 'd1' },
    }),
    fetch,
    readCookie: () => null,
  });
  return { http, fetch };
}

const url = (fetch: ReturnType<typeof client>['fetch'], i: number) => String(fetch.mock.calls[i]?.[0]?.url);

describe('page', () => {
  it('reads the items, X-Total-Count and X-Next-Cursor', async () => {
    const { http } = client({ 'X-Total-Count': '42', 'X-Next-Cursor': 'abc' });
    const users = await page(UserSchema, http.GET('/api/v1/user', { params: { query: { limit: 1 } } }));
    expect(users).toEqual({ items: [user], total: 42, nextCursor: 'abc' });
  });

  it('ends the paging without a cursor and counts the items without a total', async () => {
    const { http } = client({});
    expect(await page(UserSchema, http.GET('/api/v1/user'))).toEqual({
      items: [user],
      total: 1,
      nextCursor: null,
    });
  });

  it('replaces the client’s domain hint: undefined removes it, a value filters', async () => {
    const { http, fetch } = client({});
    await page(UserSchema, http.GET('/api/v1/user', { params: { query: { domain: undefined } } }));
    expect(url(fetch, 0)).not.toMatch(/[?&]domain=/);
    await page(UserSchema, http.GET('/api/v1/user', { params: { query: { domain: 'other.com' } } }));
    expect(url(fetch, 1)).toMatch(/[?&]domain=other\.com/);
  });
});
