import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IdentityAuth } from '../../lib/identity/auth.ts';
import { testApiUser } from '../../test/fakeServices.ts';
import { visitorCaller } from './embedded.ts';
import { accountCaller, lazyAccountApi, productClient } from './services.ts';
import { accountSession, embeddedSession, emptyAccountSession, emptyEmbeddedSession } from './session.ts';

afterEach(() => {
  accountSession.setState({ ...emptyAccountSession });
  embeddedSession.setState({ ...emptyEmbeddedSession });
  vi.unstubAllGlobals();
});

function capture() {
  const fetch = vi.fn(
    async (_request: Request) =>
      new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return () => {
    const request = fetch.mock.calls[0]?.[0] as Request;
    return { url: new URL(request.url), headers: request.headers };
  };
}

const auth = { getIdToken: vi.fn(async () => 'account-token') } as unknown as IdentityAuth;

describe('product calls', () => {
  it('carry the account session on the app’s pages', async () => {
    const last = capture();
    accountSession.setState({ ...emptyAccountSession, apiUser: testApiUser });
    embeddedSession.setState({ idToken: 'visitor-token', apiUser: null, domain: null });
    await productClient('', accountCaller(auth)).GET('/api/v1/chats');
    const { url, headers } = last();
    expect(headers.get('authorization')).toBe('Bearer account-token');
    expect(headers.get('domain')).toBe('acme.com');
    // Who is calling is the token's to say: the person's e-mail stays out of URLs (and access logs).
    expect(url.searchParams.get('department')).toBe(testApiUser.department);
    expect(decodeURIComponent(url.href)).not.toContain(testApiUser.email);
  });

  it('carry the visitor’s session on the embedded chat’s page, never the account’s', async () => {
    const last = capture();
    accountSession.setState({ ...emptyAccountSession, apiUser: testApiUser });
    embeddedSession.setState({ idToken: 'visitor-token', apiUser: null, domain: null });
    await productClient('', visitorCaller).GET('/api/v1/chats');
    const { url, headers } = last();
    expect(headers.get('authorization')).toBe('Bearer visitor-token');
    expect(headers.has('domain')).toBe(false);
    expect(url.search).toBe('');
  });

  it('tell the page’s caller when the server refuses it', async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 401 }));
    const refused = vi.fn();
    const caller = { ...accountCaller(auth), refused };
    await expect(productClient('', caller).GET('/api/v1/chats')).rejects.toThrow();
    expect(refused).toHaveBeenCalledWith('unauthenticated');
  });

  it('fetch the user by lowercased email through the lazily loaded account API', async () => {
    const last = capture();
    const api = lazyAccountApi(productClient('http://api.test', accountCaller(auth)));
    // The server's answer is taken as its user, unparsed (docs/ARCHITECTURE.md#calling-the-api).
    await expect(api.getUserByEmail(' Ana@Acme.COM ')).resolves.toEqual({});
    expect(last().url.pathname).toBe('/api/v1/user/ana%40acme.com');
  });

  it("raise not-found, 404 'User not found', when the lookup answers nothing", async () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 200 }));
    const api = lazyAccountApi(productClient('http://api.test', accountCaller(auth)));
    await expect(api.getUserByEmail('ana@acme.com')).rejects.toMatchObject({
      status: 404,
      message: 'User not found',
    });
  });
});
