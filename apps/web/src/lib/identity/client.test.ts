import { describe, expect, it, vi } from 'vitest';
import {
  createIdentityClient,
  isMobileUserAgent,
  NETWORK_TIMEOUT_DESKTOP_MS,
  NETWORK_TIMEOUT_MOBILE_MS,
  networkTimeoutMs,
} from './client.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function setup(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    respond(String(input), init ?? {}),
  );
  const client = createIdentityClient({
    baseUrl: () => '/identity/',
    apiKey: () => 'key 1',
    fetch: fetch as unknown as typeof globalThis.fetch,
    timeoutMs: () => 50,
  });
  return { client, fetch };
}

const signIn = {
  localId: 'u1',
  email: 'ana@acme.com',
  displayName: 'Ana',
  idToken: 'id',
  refreshToken: 'r1',
  expiresIn: '3600',
  registered: true,
};

describe('identity client', () => {
  it('signs in with password as the Identity Toolkit expects', async () => {
    const { client, fetch } = setup(() => json(200, signIn));
    await expect(client.signInWithPassword('ana@acme.com', 'pw')).resolves.toMatchObject({ localId: 'u1' });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/identity/v1/accounts:signInWithPassword?key=key%201');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'ana@acme.com',
      password: 'pw',
      returnSecureToken: true,
    });
  });

  it('refreshes with a form-encoded refresh_token grant', async () => {
    const { client, fetch } = setup(() =>
      json(200, {
        id_token: 'id2',
        refresh_token: 'r2',
        expires_in: '3600',
        token_type: 'Bearer',
        user_id: 'u1',
        project_id: 'p',
      }),
    );
    await expect(client.refreshIdToken('r 1')).resolves.toMatchObject({
      id_token: 'id2',
      refresh_token: 'r2',
    });
    const init = fetch.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(init?.body).toBe('grant_type=refresh_token&refresh_token=r+1');
  });

  it('revokes, sends reset mails and checks reset codes', async () => {
    const { client, fetch } = setup((url) =>
      url.includes('resetPassword')
        ? json(200, { email: 'ana@acme.com', requestType: 'PASSWORD_RESET' })
        : json(200, {}),
    );
    await client.revokeToken('r1');
    await client.sendPasswordResetEmail('ana@acme.com', 'es');
    await expect(client.verifyPasswordResetCode('code')).resolves.toBe('ana@acme.com');
    const bodies = fetch.mock.calls.map(([url, init]) => [
      String(url).split('?')[0],
      JSON.parse(String(init?.body)),
    ]);
    expect(bodies).toEqual([
      ['/identity/v2/accounts:revokeToken', { token: 'r1' }],
      [
        '/identity/v1/accounts:sendOobCode',
        { requestType: 'PASSWORD_RESET', email: 'ana@acme.com', locale: 'es' },
      ],
      ['/identity/v1/accounts:resetPassword', { oobCode: 'code' }],
    ]);
  });

  it('parses the password policy with the contract (schema version 1)', async () => {
    const policy = {
      customStrengthOptions: { minPasswordLength: 8, containsNumericCharacter: true },
      allowedNonAlphanumericCharacters: [],
      enforcementState: 'ENFORCE',
      forceUpgradeOnSignin: false,
      schemaVersion: 1,
    };
    const { client } = setup(() => json(200, policy));
    await expect(client.getPasswordPolicy()).resolves.toEqual(policy);
    const { client: other } = setup(() => json(200, { ...policy, schemaVersion: 2 }));
    await expect(other.getPasswordPolicy()).rejects.toMatchObject({ code: 'auth/internal-error' });
  });

  it('maps identity errors to auth codes', async () => {
    const { client } = setup(() => json(400, { error: { code: 400, message: 'USER_DISABLED', errors: [] } }));
    await expect(client.signInWithPassword('a@b.c', 'x')).rejects.toMatchObject({
      code: 'auth/user-disabled',
    });
  });

  it('reports network failures and timeouts as auth/network-request-failed', async () => {
    const { client } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.signInWithPassword('a@b.c', 'x')).rejects.toMatchObject({
      code: 'auth/network-request-failed',
    });
    const { client: slow } = setup(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await expect(slow.signInWithPassword('a@b.c', 'x')).rejects.toMatchObject({
      code: 'auth/network-request-failed',
    });
  });

  it('rejects an answer that is not a sign-in response', async () => {
    const { client } = setup(() => json(200, { localId: 'u1' }));
    await expect(client.signInWithPassword('a@b.c', 'x')).rejects.toMatchObject({
      code: 'auth/internal-error',
    });
  });
});

describe('network timeout', () => {
  it('is 30 s on desktop and 60 s on mobile', () => {
    expect(NETWORK_TIMEOUT_DESKTOP_MS).toBe(30_000);
    expect(NETWORK_TIMEOUT_MOBILE_MS).toBe(60_000);
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    const android =
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36';
    const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36';
    expect(isMobileUserAgent(iphone)).toBe(true);
    expect(networkTimeoutMs(android)).toBe(60_000);
    expect(networkTimeoutMs(desktop)).toBe(30_000);
  });
});
