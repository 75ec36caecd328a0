import { ErrorBodySchema, UserSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Channels } from '../context.ts';
import { domains, users } from '../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { makeDomain, makeUser, type TestUser } from '../test/factories.ts';

let t: TestApp;

const me = (who: TestUser, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/user/${encodeURIComponent(who.user.id)}`,
    headers: { ...who.headers, ...headers },
  });

/** With Redis the bus is asynchronous: give a published message a moment to arrive. */
async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('caller authentication', () => {
  it('accepts a valid bearer token, with any scheme casing and with the client’s hint headers', async () => {
    const u = await makeUser(t.ctx);
    expect((await me(u)).statusCode).toBe(200);
    const res = await me(u, {
      authorization: `bearer ${u.idToken}`,
      domain: 'other.example',
      department: 'nope',
      'x-endpoint-api-userinfo': 'garbage',
      'cache-control': 'no-cache',
    });
    expect(res.statusCode).toBe(200);
    expect(UserSchema.parse(res.json())._id).toBe(u.user.id);
  });

  it('refuses missing, malformed, tampered and foreign tokens with 401', async () => {
    const u = await makeUser(t.ctx);
    // Verified and cached first: a forgery sharing its signature must not ride on that.
    expect((await me(u)).statusCode).toBe(200);
    const [h, p, s] = u.idToken.split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: 'someone-else' })).toString('base64url');
    for (const authorization of [
      '',
      'Bearer',
      'Basic dXNlcjpwYXNz',
      `Bearer ${u.idToken}x`,
      `Bearer ${h}.${forged}.${s}`,
      `Bearer ${h}.${p}.`,
      `Bearer ${u.idToken} x`,
      `Bearer ${u.idToken}!`,
      `Token ${u.idToken}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/user/${encodeURIComponent(u.user.id)}`,
        headers: { authorization },
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(ErrorBodySchema.parse(res.json()).error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('a revoked session is refused at once, although its id token has not expired', async () => {
    const u = await makeUser(t.ctx);
    expect((await me(u)).statusCode).toBe(200);
    await t.ctx.identity.revokeSession(u.sessionId, 'test');
    expect((await me(u)).statusCode).toBe(401);
  });

  it('a disabled identity account is refused at once', async () => {
    const u = await makeUser(t.ctx);
    expect((await me(u)).statusCode).toBe(200);
    await t.ctx.identity.setDisabled(u.uid, true);
    expect((await me(u)).statusCode).toBe(401);
  });

  it('a user deactivated through the API loses access on their next request', async () => {
    const d = await makeDomain(t.ctx);
    const admin = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const u = await makeUser(t.ctx, { domain: d });
    expect((await me(u)).statusCode).toBe(200);
    const current = UserSchema.parse((await me(u)).json());
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${encodeURIComponent(u.user.id)}`,
      headers: admin.headers,
      payload: { ...current, active: false },
    });
    expect(res.statusCode).toBe(200);
    expect([401, 403]).toContain((await me(u)).statusCode);
    // Deactivation also ends their identity sessions: a fresh sign-in is refused too.
    expect((await t.ctx.identity.findAccount(u.uid))?.disabled).toBe(true);
  });

  it('a demoted Admin loses Admin rights on the next request', async () => {
    const d = await makeDomain(t.ctx);
    const sa = await makeUser(t.ctx, { role: 'SuperAdmin' });
    const admin = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const colleague = await makeUser(t.ctx, { domain: d });
    const see = () =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/user/${encodeURIComponent(colleague.user.id)}`,
        headers: admin.headers,
      });
    expect((await see()).statusCode).toBe(200);
    const current = UserSchema.parse((await me(admin)).json());
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${encodeURIComponent(admin.user.id)}`,
      headers: sa.headers,
      payload: { ...current, role: 'Viewer' },
    });
    expect(res.statusCode).toBe(200);
    expect((await see()).statusCode).toBe(404);
  });

  it('a change made elsewhere (another replica) applies once its invalidation arrives on the bus', async () => {
    const u = await makeUser(t.ctx);
    expect((await me(u)).statusCode).toBe(200);
    await t.ctx.db.update(users).set({ active: false }).where(eq(users.id, u.user.id));
    await t.ctx.bus.publish(Channels.authInvalidate, { email: u.user.email.toUpperCase() });
    expect(await eventually(async () => (await me(u)).statusCode === 403)).toBe(true);
    expect(ErrorBodySchema.parse((await me(u)).json()).error.code).toBe('FORBIDDEN');
  });

  it('a deactivated domain shuts out its users once invalidated', async () => {
    const d = await makeDomain(t.ctx);
    const u = await makeUser(t.ctx, { role: 'Admin', domain: d });
    expect((await me(u)).statusCode).toBe(200);
    await t.ctx.db.update(domains).set({ active: false }).where(eq(domains.id, d.domain.id));
    await t.ctx.bus.publish(Channels.authInvalidate, { domain: d.domain.id });
    expect(await eventually(async () => (await me(u)).statusCode === 403)).toBe(true);
  });

  it('an identity account without a stored user is refused with 403', async () => {
    const account = await t.ctx.identity.createAccount({
      email: `ghost${Date.now()}@example.com`,
      password: 'Ghost-Password-123',
    });
    const pair = await t.ctx.identity.issueSession(account.uid, { kind: 'web', name: 'test' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/department',
      headers: { authorization: `Bearer ${pair.idToken}` },
    });
    expect(res.statusCode).toBe(403);
  });
});
