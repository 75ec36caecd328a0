import {
  type ApiKey,
  type ApiKeyCreated,
  ApiKeyCreatedSchema,
  ApiKeySchema,
  AuditEntrySchema,
  ErrorBodySchema,
  PageHeaders,
  UserSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { hashSecret, TOUCH_EVERY_MS } from './service.ts';

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;
let otherAdmin: TestUser;
let otherViewer: TestUser;
let superAdmin: TestUser;

type Method = 'GET' | 'POST' | 'DELETE' | 'PUT';
function call(method: Method, url: string, who?: TestUser | { authorization: string }, payload?: unknown) {
  const headers = who ? ('headers' in who ? who.headers : who) : {};
  return t.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const keysOf = (body: unknown): ApiKey[] => ApiKeySchema.strict().array().parse(body);

async function create(who: TestUser, body: object = { name: 'CI' }): Promise<ApiKeyCreated> {
  const res = await call('POST', '/api/v1/api_keys', who, body);
  expect(res.statusCode, res.body).toBe(201);
  return ApiKeyCreatedSchema.strict().parse(res.json());
}
/** What a key may reach: the OpenAI-compatible model list (200), or the refusal's status. */
async function useKey(secret: string): Promise<number> {
  return (await call('GET', '/v1/models', bearer(secret))).statusCode;
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeDomain(t.ctx);
  b = await makeDomain(t.ctx);
  viewer = await makeUser(t.ctx, { domain: a, role: 'Viewer' });
  editor = await makeUser(t.ctx, { domain: a, role: 'Editor' });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  otherAdmin = await makeUser(t.ctx, { domain: b, role: 'Admin' });
  otherViewer = await makeUser(t.ctx, { domain: b, role: 'Viewer' });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin' });
});

afterAll(async () => {
  await t?.close();
});

describe('creating an API key', () => {
  it('answers the secret once (ak_ and 256 random bits) and stores only its SHA-256', async () => {
    const made = await create(viewer, { name: '  Laptop  ' });
    expect(made.name).toBe('Laptop');
    expect(made.secret).toMatch(/^ak_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.secret.slice(0, 11));
    expect(made).toMatchObject({ userId: viewer.user.id, lastUsedAt: null, expiresAt: null });
    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, made.id));
    expect(row?.secretHash).toBe(hashSecret(made.secret));
    expect(JSON.stringify(row)).not.toContain(made.secret.slice(3));
    // Never again: the list has no secret.
    const list = await call('GET', '/api/v1/api_keys', viewer);
    expect(list.body).not.toContain(made.secret);
    expect(keysOf(list.json()).map((k) => k.id)).toContain(made.id);
  });

  it('every role may hold keys of its own', async () => {
    for (const who of [viewer, editor, admin, superAdmin]) await create(who);
  });

  it('refuses bad input with a 400 and creates nothing', async () => {
    const before = (await call('GET', '/api/v1/api_keys', editor)).headers[PageHeaders.total.toLowerCase()];
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'ok', expiresAt: 'tomorrow' },
      { name: 'ok', expiresAt: new Date(Date.now() - 60_000).toISOString() },
    ]) {
      const res = await call('POST', '/api/v1/api_keys', editor, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    expect((await call('GET', '/api/v1/api_keys', editor)).headers[PageHeaders.total.toLowerCase()]).toBe(
      before,
    );
  });

  it('needs a signed-in person: no token, or an API key, is refused', async () => {
    expect((await call('POST', '/api/v1/api_keys', undefined, { name: 'x' })).statusCode).toBe(401);
    const key = await create(viewer);
    expect((await call('POST', '/api/v1/api_keys', bearer(key.secret), { name: 'x' })).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/api_keys', bearer(key.secret))).statusCode).toBe(401);
  });

  it('records an audit entry without the secret', async () => {
    const made = await create(admin, { name: 'Audited' });
    const res = await call('GET', `/api/v1/audit?action=apiKey.create&targetId=${made.id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = AuditEntrySchema.array().parse(res.json());
    expect(entry).toMatchObject({
      domain: a.domain.id,
      actor: { id: admin.user.id },
      target: { type: 'apiKey', id: made.id },
      after: { displayName: 'Audited', prefix: made.prefix, expiresAt: null },
    });
    expect(res.body).not.toContain(made.secret);
  });
});

describe('listing API keys', () => {
  it('a user sees only their own keys, newest first, paged', async () => {
    const mine = await makeUser(t.ctx, { domain: a });
    const made = [];
    for (const name of ['one', 'two', 'three']) made.push(await create(mine, { name }));
    await create(viewer, { name: 'not theirs' });
    const first = await call('GET', '/api/v1/api_keys?limit=2', mine);
    expect(first.headers[PageHeaders.total.toLowerCase()]).toBe('3');
    expect(keysOf(first.json()).map((k) => k.name)).toEqual(['three', 'two']);
    const cursor = String(first.headers[PageHeaders.nextCursor.toLowerCase()]);
    const second = await call('GET', `/api/v1/api_keys?limit=2&cursor=${encodeURIComponent(cursor)}`, mine);
    expect(keysOf(second.json()).map((k) => k.name)).toEqual(['one']);
    expect(second.headers[PageHeaders.nextCursor.toLowerCase()]).toBeUndefined();
    expect((await call('GET', '/api/v1/api_keys?cursor=forged', mine)).statusCode).toBe(400);
  });

  it('an Admin lists every key of their domain, and only theirs (scope=domain)', async () => {
    const theirs = await create(otherViewer);
    const res = await call('GET', '/api/v1/api_keys?scope=domain&limit=200', admin);
    expect(res.statusCode).toBe(200);
    const keys = keysOf(res.json());
    expect(new Set(keys.map((k) => k.userId))).toEqual(
      new Set(keys.filter((k) => k.userId.endsWith(`@${a.domain.id}`)).map((k) => k.userId)),
    );
    expect(keys.map((k) => k.userId)).toContain(viewer.user.id);
    expect(keys.map((k) => k.id)).not.toContain(theirs.id);
    // `domain=` is only a SuperAdmin's to choose: an Admin still gets their own domain.
    const asked = keysOf(
      (await call('GET', `/api/v1/api_keys?scope=domain&domain=${b.domain.id}`, admin)).json(),
    );
    expect(asked.map((k) => k.id)).not.toContain(theirs.id);
  });

  it('Viewers and Editors may not list their domain’s keys', async () => {
    for (const who of [viewer, editor]) {
      expect((await call('GET', '/api/v1/api_keys?scope=domain', who)).statusCode).toBe(403);
    }
  });

  it('a SuperAdmin lists any domain’s keys', async () => {
    const theirs = await create(otherViewer);
    const res = await call(
      'GET',
      `/api/v1/api_keys?scope=domain&domain=${b.domain.id}&limit=200`,
      superAdmin,
    );
    expect(keysOf(res.json()).map((k) => k.id)).toContain(theirs.id);
  });
});

describe('revoking an API key', () => {
  it('its owner revokes it and it stops at once', async () => {
    const key = await create(viewer);
    expect(await useKey(key.secret)).toBe(200);
    expect((await call('DELETE', `/api/v1/api_keys/${key.id}`, viewer)).statusCode).toBe(204);
    expect(await useKey(key.secret)).toBe(401);
    expect((await call('DELETE', `/api/v1/api_keys/${key.id}`, viewer)).statusCode).toBe(404);
  });

  it('an Admin revokes a key of their domain, with an audit entry', async () => {
    const key = await create(editor);
    expect(await useKey(key.secret)).toBe(200);
    expect((await call('DELETE', `/api/v1/api_keys/${key.id}`, admin)).statusCode).toBe(204);
    expect(await useKey(key.secret)).toBe(401);
    const audit = await call('GET', `/api/v1/audit?action=apiKey.revoke&targetId=${key.id}`, admin);
    expect(AuditEntrySchema.array().parse(audit.json())[0]).toMatchObject({
      actor: { id: admin.user.id },
      before: { prefix: key.prefix },
    });
  });

  it('another user of the domain, or an Admin of another domain, is told it does not exist', async () => {
    const key = await create(editor);
    for (const who of [viewer, otherAdmin, otherViewer]) {
      const res = await call('DELETE', `/api/v1/api_keys/${key.id}`, who);
      expect(res.statusCode).toBe(404);
    }
    expect(await useKey(key.secret)).toBe(200);
  });

  it('a SuperAdmin revokes any domain’s key', async () => {
    const key = await create(otherViewer);
    expect((await call('DELETE', `/api/v1/api_keys/${key.id}`, superAdmin)).statusCode).toBe(204);
    expect(await useKey(key.secret)).toBe(401);
  });
});

describe('a key acts as its user', () => {
  it('bad or unknown keys are refused with 401', async () => {
    expect(await useKey('ak_nothing')).toBe(401);
    expect(await useKey(`ak_${'A'.repeat(43)}`)).toBe(401);
    expect((await call('GET', '/v1/models')).statusCode).toBe(401);
  });

  it('a deactivated user’s keys stop on the next request, and come back with them', async () => {
    const who = await makeUser(t.ctx, { domain: a });
    const key = await create(who);
    expect(await useKey(key.secret)).toBe(200);
    const url = `/api/v1/user/${encodeURIComponent(who.user.id)}`;
    const record = UserSchema.parse((await call('GET', url, admin)).json());
    expect((await call('PUT', url, admin, { ...record, active: false })).statusCode).toBe(200);
    // Deactivation disables the identity account too: refused as a credential that no longer works.
    expect(await useKey(key.secret)).toBe(401);
    expect((await call('PUT', url, admin, { ...record, active: true })).statusCode).toBe(200);
    expect(await useKey(key.secret)).toBe(200);
  });

  it('an expired key is refused', async () => {
    const key = await create(viewer, { name: 'short', expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect(key.expiresAt).not.toBeNull();
    expect(await useKey(key.secret)).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expect(await useKey(key.secret)).toBe(401);
  });

  it('records when a key was last used, at most once a minute', async () => {
    const key = await create(viewer);
    expect(await useKey(key.secret)).toBe(200);
    const read = async () =>
      (await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]?.lastUsedAt ?? null;
    await expect.poll(read).not.toBeNull();
    const first = await read();
    expect(await useKey(key.secret)).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await read()).toEqual(first);
    expect(TOUCH_EVERY_MS).toBe(60_000);
    const listed = keysOf((await call('GET', '/api/v1/api_keys?limit=200', viewer)).json());
    expect(listed.find((k) => k.id === key.id)?.lastUsedAt).toBe(first?.toISOString());
  });
});
