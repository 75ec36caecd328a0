import {
  IdentityErrorBodySchema,
  RefreshTokenResponseSchema,
  SignInWithIdpResponseSchema,
  type SsoProvider,
  SsoProviderSchema,
  UserSchema,
} from '@assistente/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityAccounts, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { type OidcFixture, startOidcProvider, TestBrowser } from '../../test/oidc-provider.ts';

const APP = 'http://localhost:3999';

let idp: OidcFixture;
let t: TestApp;
let acme: TestDomain;
let superAdmin: TestUser;
let admin: TestUser;
let alice: TestUser;
/** Creates people of acme.test as Editors. */
let open: SsoProvider;
/** Signs in only people who already exist. */
let closed: SsoProvider;

async function addProvider(body: Record<string, unknown>): Promise<SsoProvider> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/integration/sso',
    headers: superAdmin.headers,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return SsoProviderSchema.parse(res.json());
}

interface Dance {
  /** Where the callback sent the browser (the login page). */
  landed: URL;
  callbackPath: string;
  cookie: string;
}

/**
 * A browser's whole round trip: start here, sign in at the provider's page as `email`, come back
 * to the callback. `tamper` may change the authorization URL before the browser follows it.
 */
async function dance(
  provider: SsoProvider,
  email: string,
  opts: { verified?: boolean; tamper?: (url: URL) => void; cancel?: boolean; redirect?: string } = {},
): Promise<Dance> {
  const start = await t.app.inject({
    url: `/identity/sso/${provider.id}/start?redirect=${encodeURIComponent(opts.redirect ?? '/chats')}`,
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' },
  });
  expect(start.statusCode, start.body).toBe(302);
  const authUrl = new URL(String(start.headers.location));
  expect(authUrl.origin).toBe(idp.issuer);
  expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authUrl.searchParams.get('redirect_uri')).toBe(`${APP}/identity/sso/${provider.id}/callback`);
  const setCookie = ([] as string[]).concat(start.headers['set-cookie'] ?? []);
  expect(setCookie[0]).toMatch(/HttpOnly/);
  expect(setCookie[0]).toMatch(/SameSite=Lax/);
  const cookie = (setCookie[0] ?? '').split(';')[0] ?? '';
  opts.tamper?.(authUrl);

  const browser = new TestBrowser();
  const login = await browser.follow(authUrl.href, idp.issuer);
  expect(login.html).toContain('Test identity provider');
  const action = opts.cancel ? 'abort' : 'login';
  const back = await browser.follow(`${login.url.replace(/\?.*$/, '')}/${action}`, idp.issuer, {
    method: 'POST',
    form: opts.cancel ? {} : { email, ...(opts.verified === false ? {} : { verified: '1' }) },
  });
  const callback = new URL(back.url);
  expect(callback.origin).toBe(APP);
  const callbackPath = `${callback.pathname}${callback.search}`;
  const cb = await t.app.inject({ url: callbackPath, headers: { cookie } });
  expect(cb.statusCode, cb.body).toBe(302);
  return { landed: new URL(String(cb.headers.location)), callbackPath, cookie };
}

const fragment = (landed: URL) => new URLSearchParams(landed.hash.slice(1));

async function exchange(landed: URL) {
  const f = fragment(landed);
  return t.app.inject({
    method: 'POST',
    url: '/identity/v1/accounts:signInWithIdp',
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' },
    payload: {
      requestUri: `${APP}/auth/login`,
      postBody: `code=${f.get('ssoCode')}&providerId=${f.get('providerId')}`,
      returnSecureToken: true,
    },
  });
}

const identityError = (res: { json(): unknown }) => IdentityErrorBodySchema.parse(res.json()).error.message;

async function nothingCreatedFor(email: string) {
  expect(await t.ctx.db.select().from(users).where(eq(users.id, email))).toEqual([]);
  expect(
    await t.ctx.db.select().from(identityAccounts).where(sql`lower(${identityAccounts.email}) = ${email}`),
  ).toEqual([]);
}

beforeAll(async () => {
  idp = await startOidcProvider();
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${idp.port}` });
  acme = await makeDomain(t.ctx, { id: 'acme.test', premium: true });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin' });
  admin = await makeUser(t.ctx, { domain: acme, role: 'Admin' });
  alice = await makeUser(t.ctx, { domain: acme, email: 'alice@acme.test' });
  open = await addProvider({
    displayName: 'Acme IdP',
    issuer: idp.issuer,
    clientId: 'open-client',
    clientSecret: 'open-secret-0123456789',
    domains: ['acme.test'],
    autoProvision: true,
    defaultRole: 'Editor',
  });
  closed = await addProvider({
    displayName: 'Acme IdP (no new accounts)',
    issuer: idp.issuer,
    clientId: 'closed-client',
    clientSecret: 'closed-secret-0123456789',
    domains: ['acme.test'],
  });
  idp.setClients([
    { client_id: 'open-client', client_secret: 'open-secret-0123456789', redirect_uris: [open.redirectUri] },
    {
      client_id: 'closed-client',
      client_secret: 'closed-secret-0123456789',
      redirect_uris: [closed.redirectUri],
    },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await idp?.close();
}, 60_000);

describe('signing in with an OpenID Connect provider', () => {
  it('an existing user lands on the login page with a one-time code that becomes an ordinary session', async () => {
    const { landed } = await dance(closed, 'Alice@Acme.test');
    expect(`${landed.origin}${landed.pathname}`).toBe(`${APP}/auth/login`);
    expect(landed.searchParams.get('redirect')).toBe('/chats');
    expect(landed.searchParams.get('ssoError')).toBeNull();
    // The code travels in the fragment: never sent to a server, never in a Referer.
    expect(fragment(landed).get('ssoCode')).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const res = await exchange(landed);
    expect(res.statusCode, res.body).toBe(200);
    const session = SignInWithIdpResponseSchema.parse(res.json());
    expect(session).toMatchObject({
      kind: 'identitytoolkit#VerifyAssertionResponse',
      providerId: closed.id,
      localId: alice.uid,
      email: 'alice@acme.test',
      emailVerified: true,
      isNewUser: false,
      expiresIn: '3600',
    });
    // The id token works on the API like a password sign-in's.
    const me = await t.app.inject({
      url: '/api/v1/user/alice@acme.test',
      headers: { authorization: `Bearer ${session.idToken}` },
    });
    expect(me.statusCode).toBe(200);
    expect(UserSchema.parse(me.json()).role).toBe('Viewer');

    // Refresh rotates as usual.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/identity/v1/token',
      payload: { grant_type: 'refresh_token', refresh_token: session.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    const pair = RefreshTokenResponseSchema.parse(refreshed.json());

    // Sign out everywhere ends it.
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/sessions/revoke-all',
      headers: { authorization: `Bearer ${pair.id_token}` },
    });
    expect(all.statusCode, all.body).toBe(200);
    const after = await t.app.inject({
      method: 'POST',
      url: '/identity/v1/token',
      payload: { grant_type: 'refresh_token', refresh_token: pair.refresh_token },
    });
    expect(identityError(after)).toBe('TOKEN_EXPIRED');
  });

  it('the one-time code works once; a second use also ends the session it opened', async () => {
    const { landed } = await dance(closed, 'alice@acme.test');
    const first = await exchange(landed);
    expect(first.statusCode).toBe(200);
    const session = SignInWithIdpResponseSchema.parse(first.json());
    const again = await exchange(landed);
    expect(again.statusCode).toBe(400);
    expect(identityError(again)).toBe('INVALID_IDP_RESPONSE');
    const me = await t.app.inject({
      url: '/api/v1/user/alice@acme.test',
      headers: { authorization: `Bearer ${session.idToken}` },
    });
    expect(me.statusCode).toBe(401);
    for (const postBody of ['code=nope', '', 'providerId=x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/identity/v1/accounts:signInWithIdp',
        payload: { postBody, requestUri: APP },
      });
      expect(res.statusCode).toBe(400);
      expect(identityError(res)).toBe('INVALID_IDP_RESPONSE');
    }
  });

  it('creates an unknown person of the domain with the provider’s role when it auto-provisions', async () => {
    const { landed } = await dance(open, 'bob@acme.test');
    const session = SignInWithIdpResponseSchema.parse((await exchange(landed)).json());
    expect(session.isNewUser).toBe(true);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, 'bob@acme.test'));
    expect(row).toMatchObject({ domainId: 'acme.test', role: 'Editor', active: true, displayName: 'bob' });
    const me = await t.app.inject({
      url: '/api/v1/user/bob@acme.test',
      headers: { authorization: `Bearer ${session.idToken}` },
    });
    expect(me.statusCode).toBe(200);
    // The next sign-in finds them: not new any more.
    const second = SignInWithIdpResponseSchema.parse(
      (await exchange((await dance(open, 'bob@acme.test')).landed)).json(),
    );
    expect(second).toMatchObject({ isNewUser: false, localId: session.localId });
  });

  it('refuses an unknown person when the provider does not create accounts ("ask your Admin")', async () => {
    const { landed } = await dance(closed, 'carol@acme.test');
    expect(landed.searchParams.get('ssoError')).toBe('SSO_NOT_PROVISIONED');
    expect(landed.hash).toBe('');
    await nothingCreatedFor('carol@acme.test');
  });

  it('refuses an e-mail the provider has not verified, and creates nothing', async () => {
    const { landed } = await dance(open, 'dan@acme.test', { verified: false });
    expect(landed.searchParams.get('ssoError')).toBe('SSO_EMAIL_NOT_VERIFIED');
    await nothingCreatedFor('dan@acme.test');
  });

  it('refuses an e-mail outside the provider’s domains, and creates nothing', async () => {
    const { landed } = await dance(open, 'eve@evil.test');
    expect(landed.searchParams.get('ssoError')).toBe('SSO_DOMAIN_NOT_ALLOWED');
    await nothingCreatedFor('eve@evil.test');
    // A subdomain is another domain.
    const sub = await dance(open, 'eve@x.acme.test');
    expect(sub.landed.searchParams.get('ssoError')).toBe('SSO_DOMAIN_NOT_ALLOWED');
  });

  it('a deactivated user cannot sign in, and their SSO sessions end at once', async () => {
    const frank = await makeUser(t.ctx, { domain: acme, email: 'frank@acme.test' });
    const session = SignInWithIdpResponseSchema.parse(
      (await exchange((await dance(closed, 'frank@acme.test')).landed)).json(),
    );
    const record = UserSchema.parse(
      (await t.app.inject({ url: '/api/v1/user/frank@acme.test', headers: admin.headers })).json(),
    );
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/frank@acme.test',
      headers: admin.headers,
      payload: { ...record, active: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    const me = await t.app.inject({
      url: '/api/v1/user/frank@acme.test',
      headers: { authorization: `Bearer ${session.idToken}` },
    });
    expect(me.statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/identity/v1/token',
      payload: { grant_type: 'refresh_token', refresh_token: session.refreshToken },
    });
    expect(identityError(refresh)).toBe('USER_DISABLED');
    const { landed } = await dance(closed, 'frank@acme.test');
    expect(landed.searchParams.get('ssoError')).toBe('SSO_USER_DISABLED');
    expect(frank.uid).toBeTruthy();
  });
});

describe('the round trip is bound to the browser that started it', () => {
  it('refuses a callback whose state was changed or whose cookie is missing', async () => {
    const { callbackPath, cookie } = await dance(closed, 'alice@acme.test', {
      tamper: (url) => url.searchParams.set('state', 'forged-state-value'),
    });
    const forged = new URL(callbackPath, APP);
    expect(forged.searchParams.get('state')).toBe('forged-state-value');
    // The forged state has no cookie of its own.
    const res = await t.app.inject({ url: callbackPath, headers: { cookie } });
    expect(new URL(String(res.headers.location)).searchParams.get('ssoError')).toBe('SSO_STATE_INVALID');

    const honest = await t.app.inject({ url: `/identity/sso/${closed.id}/start?redirect=/` });
    const authUrl = new URL(String(honest.headers.location));
    const state = authUrl.searchParams.get('state') ?? '';
    const noCookie = await t.app.inject({ url: `/identity/sso/${closed.id}/callback?code=x&state=${state}` });
    expect(new URL(String(noCookie.headers.location)).searchParams.get('ssoError')).toBe('SSO_STATE_INVALID');
    // Another provider's callback does not accept this provider's cookie.
    const cookieLine = String(([] as string[]).concat(honest.headers['set-cookie'] ?? [])[0]).split(';')[0];
    const crossed = await t.app.inject({
      url: `/identity/sso/${open.id}/callback?code=x&state=${state}`,
      headers: { cookie: cookieLine ?? '' },
    });
    expect(new URL(String(crossed.headers.location)).searchParams.get('ssoError')).toBe('SSO_STATE_INVALID');
  });

  it('refuses an id token whose nonce is not the one this browser sent', async () => {
    const { landed } = await dance(closed, 'alice@acme.test', {
      tamper: (url) => url.searchParams.set('nonce', 'a-nonce-someone-else-chose'),
    });
    expect(landed.searchParams.get('ssoError')).toBe('SSO_STATE_INVALID');
    expect(landed.hash).toBe('');
  });

  it('a replayed authorization code signs nobody in', async () => {
    const { callbackPath, cookie, landed } = await dance(closed, 'alice@acme.test');
    expect(fragment(landed).get('ssoCode')).toBeTruthy();
    const replay = await t.app.inject({ url: callbackPath, headers: { cookie } });
    const again = new URL(String(replay.headers.location));
    expect(again.hash).toBe('');
    expect(again.searchParams.get('ssoError')).toMatch(/^SSO_(PROVIDER_ERROR|STATE_INVALID)$/);
  });

  it('a person who cancels at the provider comes back with a reason', async () => {
    const { landed } = await dance(closed, '', { cancel: true });
    expect(landed.searchParams.get('ssoError')).toBe('SSO_DENIED');
  });
});

describe('starting', () => {
  it('goes back only to paths of this app', async () => {
    for (const redirect of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/..//evil.example',
      'chats',
      'javascript:alert(1)',
    ]) {
      const res = await t.app.inject({
        url: `/identity/sso/${closed.id}/start?redirect=${encodeURIComponent(redirect)}`,
      });
      expect(res.statusCode, redirect).toBe(400);
      // Under /identity: refused in Identity Toolkit's envelope, as every identity route.
      expect(identityError(res)).toMatch(/^INVALID_ARGUMENT/);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const ok = await t.app.inject({
      url: `/identity/sso/${closed.id}/start?redirect=${encodeURIComponent('/chats/abc?x=1')}`,
    });
    expect(ok.statusCode).toBe(302);
  });

  it('sends the browser back to the login page for an unknown or disabled provider', async () => {
    const unknown = await t.app.inject({ url: '/identity/sso/nope/start' });
    expect(unknown.statusCode).toBe(302);
    expect(String(unknown.headers.location)).toBe(`${APP}/auth/login?ssoError=SSO_PROVIDER_NOT_FOUND`);
    const off = await addProvider({
      displayName: 'Off',
      issuer: idp.issuer,
      clientId: 'off',
      domains: ['acme.test'],
      enabled: false,
    });
    const res = await t.app.inject({ url: `/identity/sso/${off.id}/start?locale=en` });
    expect(String(res.headers.location)).toBe(`${APP}/en/auth/login?ssoError=SSO_PROVIDER_NOT_FOUND`);
  });

  it('says so when the provider cannot be reached', async () => {
    const away = await addProvider({
      displayName: 'Away',
      issuer: `http://127.0.0.1:${idp.port}/nothing-here`,
      clientId: 'away',
      domains: ['acme.test'],
    });
    const res = await t.app.inject({ url: `/identity/sso/${away.id}/start` });
    expect(String(res.headers.location)).toContain('ssoError=SSO_PROVIDER_ERROR');
  });
});
