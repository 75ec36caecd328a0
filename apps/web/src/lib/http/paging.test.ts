import { UserSchema } from '@assistente/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from './client.ts';
import { getPage } from './paging.ts';

const user = {
  _id: 'ana@acme.com',
  active: true,
  displayName: 'Ana',
  email: 'ana@acme.com',
  domain: 'acme.com',
  department: 'd1',
  role: 'Viewer',
  type: 'user',
  creator: { name: 'Op', email: 'op@acme.com' },
  eula: {
    accept: true,
    timestamp: null,
    version: 'v1',
    pendingRevision: false,
    pendingTimestamp: null,
    isPrivacyPolicy: true,
  },
};

function client(headers: Record<string, string>) {
  const fetch = vi.fn(
    async (_input: RequestInfo | URL) =>
      new Response(JSON.stringify([user]), {
        status: 200,
        headers: { 'content-type': 'application/json', ...headers },
      }),
  );
  const http = createHttpClient({
    baseUrl: () => 'https://api.test',
    context: () => ({
      idToken: 't',
      user: { domain: 'acme.com', department: 'd1' },
    }),
    fetch: fetch as unknown as typeof globalThis.fetch,
    readCookie: () => null,
  });
  return { http, fetch };
}

describe('getPage', () => {
  it('reads the items, X-Total-Count and X-Next-Cursor', async () => {
    const { http } = client({ 'X-Total-Count': '42', 'X-Next-Cursor': 'abc' });
    const page = await getPage(http, '/api/v1/user', UserSchema, { limit: 1 });
    expect(page).toEqual({ items: [user], total: 42, nextCursor: 'abc' });
  });

  it('ends the paging without a cursor and counts the items without a total', async () => {
    const { http } = client({});
    expect(await getPage(http, '/api/v1/user', UserSchema, {})).toEqual({
      items: [user],
      total: 1,
      nextCursor: null,
    });
  });

  it('replaces the client’s domain hint: undefined removes it, a value filters', async () => {
    const { http, fetch } = client({});
    await getPage(http, '/api/v1/user', UserSchema, { domain: undefined });
    expect(String(fetch.mock.calls[0]?.[0])).not.toMatch(/[?&]domain=/);
    await getPage(http, '/api/v1/user', UserSchema, { domain: 'other.com' });
    expect(String(fetch.mock.calls[1]?.[0])).toMatch(/[?&]domain=other\.com/);
  });
});
