import { createServer, type Server } from 'node:http';
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import {
  AuditEntrySchema,
  newSsoProviderId,
  SsoLoginOptionsSchema,
  type SsoProvider,
  SsoProviderSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoProviders } from '../../db/schema/index.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';

const SECRET = 'oidc-client-secret-THIS-IS-SECRET-4f3e';
/** Allow-listed for `t`, so a SuperAdmin may point an issuer at it: a stand-in that answers anything. */
let ISSUER: string;
let issuerStandIn: Server;
/** Allow-listed, nothing listens there: the connection is refused. */
let refusedPort: number;
/** Allow-listed, a socket that takes connections and never answers. */
let silent: NetServer;
const held: Socket[] = [];

let t: TestApp;
/** No allow-list: private and loopback issuers are refused. */
let strict: TestApp;
/** An instance-wide Google provider from the environment. */
let env: TestApp;

let a: TestDomain;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;
let superAdmin: TestUser;
let otherSuperAdmin: TestUser;

const body = (over: Record<string, unknown> = {}) => ({
  displayName: 'Acme Keycloak',
  issuer: ISSUER,
  clientId: 'assistente',
  clientSecret: SECRET,
  domains: [a.domain.id],
  autoProvision: true,
  defaultRole: 'Editor',
  ...over,
});

/** The one detail of the 400 that refuses `issuer`. */
async function issuerRefusal(app: TestApp, who: TestUser, issuer: string): Promise<unknown> {
  const res = await app.call(
    'POST',
    '/api/v1/integration/sso',
    who,
    body({ issuer, domains: ['a.example'] }),
  );
  expect(res.statusCode, issuer).toBe(400);
  const details = errorOf(res).details as unknown[];
  expect(details).toHaveLength(1);
  return details[0];
}

async function create(who: TestUser, over: Record<string, unknown> = {}, app = t): Promise<SsoProvider> {
  const res = await app.call('POST', '/api/v1/integration/sso', who, body(over));
  expect(res.statusCode, res.body).toBe(201);
  return SsoProviderSchema.strict().parse(res.json());
}

const listening = async <S extends Server | NetServer>(server: S): Promise<S> => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
};
const portOf = (server: Server | NetServer) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  issuerStandIn = await listening(createServer((_req, res) => res.end('{}')));
  ISSUER = `http://127.0.0.1:${portOf(issuerStandIn)}`;
  // Nothing listens on port 1 (tcpmux): a port freed by closing a server here was once taken by
  // another suite running beside this one before the refusal was asked for.
  refusedPort = 1;
  silent = await listening(createNetServer((socket) => held.push(socket)));
  t = await buildTestApp({
    PROVIDER_URL_ALLOWLIST: [ISSUER, `127.0.0.1:${refusedPort}`, `127.0.0.1:${portOf(silent)}`]
      .map((u) => u.replace(/^http:\/\//, ''))
      .join(','),
  });
  strict = await buildTestApp();
  env = await buildTestApp({
    OIDC_ISSUER: 'https://accounts.google.com',
    OIDC_CLIENT_ID: 'google-client',
    OIDC_CLIENT_SECRET: 'google-secret-value',
    OIDC_DOMAINS: 'Acme.example, other.example',
  });
  a = await makeDomain(t.ctx, { premium: true });
  viewer = await makeUser(t.ctx, { domain: a });
  editor = await makeUser(t.ctx, { domain: a, role: 'Editor' });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  superAdmin = await makeUser(t.ctx, { domain: a, role: 'SuperAdmin' });
  // A SuperAdmin of another domain: providers are instance-wide, so they manage the same ones.
  otherSuperAdmin = await makeUser(t.ctx, { role: 'SuperAdmin' });
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), strict?.close(), env?.close()]);
  issuerStandIn?.closeAllConnections();
  for (const socket of held) socket.destroy();
  await Promise.all([issuerStandIn, silent].map((s) => new Promise((done) => s?.close(done))));
}, 60_000);

describe('single sign-on providers are managed by SuperAdmins only', () => {
  it('refuses Viewers, Editors and Admins on every endpoint, and anonymous callers', async () => {
    const made = await create(superAdmin);
    for (const who of [viewer, editor, admin]) {
      for (const [method, url, payload] of [
        ['GET', '/api/v1/integration/sso', undefined],
        ['POST', '/api/v1/integration/sso', body()],
        ['PUT', `/api/v1/integration/sso/${made.id}`, { displayName: 'x' }],
        ['DELETE', `/api/v1/integration/sso/${made.id}`, undefined],
      ] as const) {
        const res = await t.call(method, url, who, payload);
        expect(res.statusCode, `${who.user.role} ${method} ${url}`).toBe(403);
      }
    }
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.call(
        method,
        '/api/v1/integration/sso',
        null,
        method === 'POST' ? body() : undefined,
      );
      expect(res.statusCode).toBe(401);
    }
    // Nothing of it changed.
    const [row] = await t.ctx.db.select().from(ssoProviders).where(eq(ssoProviders.id, made.id));
    expect(row?.displayName).toBe('Acme Keycloak');
  });

  it('a SuperAdmin of any domain lists, changes and removes them', async () => {
    const made = await create(superAdmin);
    expect(made).toMatchObject({
      kind: 'oidc',
      issuer: ISSUER,
      source: 'configured',
      hasClientSecret: true,
      autoProvision: true,
      defaultRole: 'Editor',
      enabled: true,
      redirectUri: `http://localhost:3999/identity/sso/${made.id}/callback`,
    });
    const list = await t.call('GET', '/api/v1/integration/sso', otherSuperAdmin);
    expect(list.statusCode).toBe(200);
    expect(
      SsoProviderSchema.array()
        .parse(list.json())
        .map((p) => p.id),
    ).toContain(made.id);
    const put = await t.call('PUT', `/api/v1/integration/sso/${made.id}`, otherSuperAdmin, {
      displayName: 'Renamed',
      domains: ['x.example', 'X.example'],
      enabled: false,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(SsoProviderSchema.parse(put.json())).toMatchObject({
      displayName: 'Renamed',
      domains: ['x.example'],
      enabled: false,
    });
    const del = await t.call('DELETE', `/api/v1/integration/sso/${made.id}`, otherSuperAdmin);
    expect(del.statusCode).toBe(204);
    expect((await t.call('DELETE', `/api/v1/integration/sso/${made.id}`, superAdmin)).statusCode).toBe(404);
    expect((await t.call('PUT', `/api/v1/integration/sso/${made.id}`, superAdmin, {})).statusCode).toBe(404);
  });
});

describe('the client secret', () => {
  it('is encrypted at rest and never sent back', async () => {
    const made = await create(superAdmin);
    const [row] = await t.ctx.db.select().from(ssoProviders).where(eq(ssoProviders.id, made.id));
    expect(row?.clientSecretEnc).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    for (const res of [
      await t.call('GET', '/api/v1/integration/sso', superAdmin),
      await t.call('PUT', `/api/v1/integration/sso/${made.id}`, superAdmin, { displayName: 'Again' }),
      await t.app.inject('/identity/sso/providers'),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(SECRET);
      expect(res.body).not.toContain('clientSecretEnc');
    }
  });

  it('empty keeps it, a new one replaces it, null removes it', async () => {
    const made = await create(superAdmin);
    const stored = async () =>
      (await t.ctx.db.select().from(ssoProviders).where(eq(ssoProviders.id, made.id)))[0]?.clientSecretEnc;
    const before = await stored();
    await t.call('PUT', `/api/v1/integration/sso/${made.id}`, superAdmin, { clientSecret: '' });
    expect(await stored()).toBe(before);
    expect((await t.ctx.services.sso.clientSettings(made.id))?.clientSecret).toBe(SECRET);
    await t.call('PUT', `/api/v1/integration/sso/${made.id}`, superAdmin, { clientSecret: 'another-one' });
    expect((await t.ctx.services.sso.clientSettings(made.id))?.clientSecret).toBe('another-one');
    const res = await t.call('PUT', `/api/v1/integration/sso/${made.id}`, superAdmin, {
      clientSecret: null,
    });
    expect(SsoProviderSchema.parse(res.json()).hasClientSecret).toBe(false);
    expect(await stored()).toBeNull();
  });
});

describe('bad input changes nothing', () => {
  it('refuses unknown fields, missing domains, SuperAdmin as default role and bad issuers', async () => {
    const count = async () => (await t.ctx.db.select().from(ssoProviders)).length;
    const before = await count();
    for (const payload of [
      body({ extra: 1 }),
      body({ domains: [] }),
      body({ domains: ['not a domain'] }),
      body({ defaultRole: 'SuperAdmin' }),
      body({ issuer: 'ftp://idp.example' }),
      body({ issuer: 'https://user:pw@idp.example' }),
      body({ issuer: 'https://idp.example/?x=1' }),
      body({ clientId: '' }),
      body({ displayName: '' }),
    ]) {
      const res = await t.call('POST', '/api/v1/integration/sso', superAdmin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    expect(await count()).toBe(before);
  });

  it('refuses an issuer at a private address unless allow-listed, and plain http to the world', async () => {
    for (const issuer of [
      'http://127.0.0.1:9',
      'https://10.1.2.3',
      'https://[::1]:8443',
      'http://203.0.113.9',
    ]) {
      const res = await strict.call('POST', '/api/v1/integration/sso', superAdmin, body({ issuer }));
      // `superAdmin` belongs to `t`; `strict` has its own users.
      expect([400, 401]).toContain(res.statusCode);
    }
    const sa = await makeUser(strict.ctx, { role: 'SuperAdmin' });
    for (const issuer of [
      'http://127.0.0.1:9',
      'https://10.1.2.3',
      'https://[::1]:8443',
      'http://203.0.113.9',
    ]) {
      expect(await issuerRefusal(strict, sa, issuer)).toMatchObject({ path: 'issuer', code: 'url_blocked' });
    }
    expect(await strict.ctx.db.select().from(ssoProviders)).toEqual([]);
  });

  it('takes the id the form chose up front, so its redirect URI is known before saving; never twice', async () => {
    const id = newSsoProviderId();
    const made = await create(superAdmin, { id });
    expect(made.id).toBe(id);
    expect(made.redirectUri).toBe(`http://localhost:3999/identity/sso/${id}/callback`);
    const again = await t.call('POST', '/api/v1/integration/sso', superAdmin, body({ id }));
    expect(again.statusCode).toBe(409);
    for (const bad of ['env', 'sso1', 'SSO0123456789AB', '../x']) {
      const res = await t.call('POST', '/api/v1/integration/sso', superAdmin, body({ id: bad }));
      expect(res.statusCode, bad).toBe(400);
    }
    expect(await t.ctx.db.select().from(ssoProviders).where(eq(ssoProviders.id, id))).toHaveLength(1);
  });

  it('says what is wrong with an issuer: private, https required, unresolvable, refused, silent', async () => {
    const sa = await makeUser(strict.ctx, { role: 'SuperAdmin' });
    expect(await issuerRefusal(strict, sa, 'https://10.1.2.3')).toMatchObject({
      code: 'url_blocked',
      reason: 'private',
      address: '10.1.2.3',
    });
    expect(await issuerRefusal(strict, sa, 'http://203.0.113.9')).toMatchObject({ reason: 'https_required' });
    expect(await issuerRefusal(t, superAdmin, 'https://sso.nowhere.invalid')).toMatchObject({
      reason: 'unresolvable',
      host: 'sso.nowhere.invalid',
    });
    expect(await issuerRefusal(t, superAdmin, `http://127.0.0.1:${refusedPort}`)).toMatchObject({
      reason: 'refused',
    });
    expect(await issuerRefusal(t, superAdmin, `http://127.0.0.1:${portOf(silent)}`)).toMatchObject({
      reason: 'timeout',
    });
  }, 30_000);
});

describe('the login page list', () => {
  it('shows enabled providers to anyone: id, name and kind only', async () => {
    const on = await create(superAdmin, { displayName: 'Shown' });
    const off = await create(superAdmin, { displayName: 'Hidden', enabled: false });
    const res = await t.app.inject('/identity/sso/providers');
    expect(res.statusCode).toBe(200);
    const list = SsoLoginOptionsSchema.parse(res.json()).providers;
    expect(list).toContainEqual({ id: on.id, displayName: 'Shown', kind: 'oidc' });
    expect(list.map((p) => p.id)).not.toContain(off.id);
    for (const p of res.json().providers as object[])
      expect(Object.keys(p).sort()).toEqual(['displayName', 'id', 'kind']);
  });

  it('includes the instance-wide provider of OIDC_* as Google, read-only through the API', async () => {
    const res = await env.app.inject('/identity/sso/providers');
    expect(SsoLoginOptionsSchema.parse(res.json()).providers).toEqual([
      { id: 'env', displayName: 'Google', kind: 'google' },
    ]);
    const sa = await makeUser(env.ctx, { role: 'SuperAdmin' });
    const list = SsoProviderSchema.array().parse(
      (await env.call('GET', '/api/v1/integration/sso', sa)).json(),
    );
    expect(list).toEqual([
      expect.objectContaining({
        id: 'env',
        source: 'instance',
        kind: 'google',
        domains: ['acme.example', 'other.example'],
        hasClientSecret: true,
        autoProvision: false,
        defaultRole: 'Viewer',
        redirectUri: 'http://localhost:3999/identity/sso/env/callback',
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain('google-secret-value');
    expect((await env.call('PUT', '/api/v1/integration/sso/env', sa, { displayName: 'x' })).statusCode).toBe(
      400,
    );
    expect((await env.call('DELETE', '/api/v1/integration/sso/env', sa)).statusCode).toBe(400);
  });
});

describe('the audit log', () => {
  it('records every change as instance-wide, without the secret', async () => {
    const made = await create(otherSuperAdmin, { displayName: 'Audited' });
    await t.call('PUT', `/api/v1/integration/sso/${made.id}`, otherSuperAdmin, {
      clientSecret: 'replaced-secret-value',
      autoProvision: false,
    });
    await t.call('DELETE', `/api/v1/integration/sso/${made.id}`, otherSuperAdmin);
    const res = await t.call('GET', `/api/v1/audit?targetId=${made.id}`, otherSuperAdmin);
    expect(res.statusCode, res.body).toBe(200);
    const entries = AuditEntrySchema.array().parse(res.json());
    expect(entries.map((e) => e.action)).toEqual(['sso.delete', 'sso.update', 'sso.create']);
    expect(entries.every((e) => e.domain === null && e.target.type === 'ssoProvider')).toBe(true);
    expect(entries[1]?.after).toMatchObject({ autoProvision: false, keyReplaced: true });
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('replaced-secret-value');
    // A domain's Admin does not read instance-wide entries.
    const adminView = await t.call('GET', `/api/v1/audit?targetId=${made.id}`, admin);
    expect(AuditEntrySchema.array().parse(adminView.json())).toEqual([]);
  });
});
