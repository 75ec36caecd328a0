import { createHash, randomBytes } from 'node:crypto';
import { CodeTokenResponseSchema, ErrorBodySchema, LoginSubmitResponseSchema } from '@assistente/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authCodes, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';
import { hashCode } from './service.ts';

let t: TestApp;
const WEB = 'http://localhost:3999';
const LOGIN = `${WEB}/auth/login`;
const BASE = '/api/v1/user_management';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

function submitBody(u: TestUser, challenge: string, overrides: Record<string, unknown> = {}) {
  return {
    idToken: u.idToken,
    refreshToken: u.refreshToken,
    state: 'st-123',
    code_challenge: challenge,
    redirect_uri: LOGIN,
    email: u.user.email,
    ...overrides,
  };
}

function post(path: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: `${BASE}${path}`, payload: payload as object, headers });
}

async function codeCount(): Promise<number> {
  const [row] = await t.ctx.db.select({ n: count() }).from(authCodes);
  return row?.n ?? 0;
}

/** login_submit → the code from the answered redirect address. */
async function issueCode(u: TestUser, challenge: string, redirect = LOGIN): Promise<string> {
  const res = await post('/login_submit', submitBody(u, challenge, { redirect_uri: redirect }), {
    origin: WEB,
  });
  expect(res.statusCode, res.body).toBe(200);
  const url = new URL(LoginSubmitResponseSchema.parse(res.json()).redirect_uri);
  expect(`${url.origin}${url.pathname}`).toBe(redirect);
  expect(url.searchParams.get('state')).toBe('st-123');
  const code = url.searchParams.get('code');
  expect(code).toBeTruthy();
  return code ?? '';
}

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('code-assist handoff', () => {
  it('login_submit → token gives the editor its own session, named after it', async () => {
    const u = await makeUser(t.ctx, { role: 'Editor' });
    const { verifier, challenge } = pkce();
    const code = await issueCode(u, challenge);
    // Stored hashed, never in clear.
    const [row] = await t.ctx.db
      .select()
      .from(authCodes)
      .where(eq(authCodes.codeHash, hashCode(code)));
    expect(row?.uid).toBe(u.uid);
    expect(JSON.stringify(row)).not.toContain(code);

    const res = await post('/token', { code, code_verifier: verifier, redirect_uri: LOGIN });
    expect(res.statusCode, res.body).toBe(200);
    const tokens = CodeTokenResponseSchema.strict().parse(res.json());
    expect(tokens).toMatchObject({ localId: u.uid, email: u.user.email });

    const me = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/${encodeURIComponent(u.user.id)}`,
      headers: { authorization: `Bearer ${tokens.idToken}` },
    });
    expect(me.statusCode).toBe(200);
    const sessions = await t.ctx.identity.listSessions(u.uid);
    expect(sessions.some((s) => s.kind === 'editor' && s.name === 'VS Code')).toBe(true);
  });

  it('accepts the login page under a locale prefix, and the editor may name it without one', async () => {
    const u = await makeUser(t.ctx);
    for (const locale of ['en', 'es', 'pt-BR']) {
      const { verifier, challenge } = pkce();
      const code = await issueCode(u, challenge, `${WEB}/${locale}/auth/login`);
      const res = await post('/token', { code, code_verifier: verifier, redirect_uri: LOGIN });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('refuses any redirect_uri that is not the app’s own login page, storing nothing', async () => {
    const u = await makeUser(t.ctx);
    const { challenge } = pkce();
    const before = await codeCount();
    for (const redirect_uri of [
      'https://evil.example/auth/login',
      `${LOGIN}?next=https://evil.example`,
      `${LOGIN}#x`,
      `${LOGIN}/`,
      `${WEB}/auth/loginx`,
      `${WEB}/fr/auth/login`,
      'http://localhost:4000/auth/login',
      `http://127.0.0.1:3999/auth/login`,
      'vscode://assistente.assistente-vscode/auth-callback',
    ]) {
      const res = await post('/login_submit', submitBody(u, challenge, { redirect_uri }), { origin: WEB });
      expect(res.statusCode, redirect_uri).toBe(400);
      expect(ErrorBodySchema.safeParse(res.json()).success).toBe(true);
    }
    expect(await codeCount()).toBe(before);
  });

  it('refuses a wrong email, a foreign or unknown refresh token, a bad id token, a non-S256 challenge', async () => {
    const u = await makeUser(t.ctx);
    const other = await makeUser(t.ctx);
    const { challenge } = pkce();
    const before = await codeCount();
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ email: other.user.email }, 403],
      [{ refreshToken: other.refreshToken }, 401],
      [{ refreshToken: 'not-a-refresh-token' }, 401],
      [{ idToken: other.idToken }, 403],
      [{ idToken: 'x.y.z' }, 401],
      [{ code_challenge: 'plain-challenge' }, 400],
      [{ extra: 1 }, 400],
      [{ state: '' }, 400],
    ];
    for (const [override, status] of cases) {
      const res = await post('/login_submit', submitBody(u, challenge, override), { origin: WEB });
      expect(res.statusCode, JSON.stringify(override)).toBe(status);
    }
    expect(await codeCount()).toBe(before);
  });

  it('refuses a signed-out session and a deactivated user', async () => {
    const u = await makeUser(t.ctx);
    const { challenge } = pkce();
    await t.ctx.identity.revokeSession(u.sessionId, 'test');
    expect((await post('/login_submit', submitBody(u, challenge), { origin: WEB })).statusCode).toBe(401);

    const v = await makeUser(t.ctx);
    await t.ctx.db.update(users).set({ active: false }).where(eq(users.id, v.user.id));
    await t.ctx.services.callerStates.invalidate({ email: v.user.id });
    expect((await post('/login_submit', submitBody(v, challenge), { origin: WEB })).statusCode).toBe(403);
  });

  it('refuses a wrong verifier, and the code is spent afterwards', async () => {
    const u = await makeUser(t.ctx);
    const { verifier, challenge } = pkce();
    const code = await issueCode(u, challenge);
    const wrong = await post('/token', { code, code_verifier: pkce().verifier, redirect_uri: LOGIN });
    expect(wrong.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(wrong.json()).error.code).toBe('INVALID_GRANT');
    const again = await post('/token', { code, code_verifier: verifier, redirect_uri: LOGIN });
    expect(again.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(again.json()).error.code).toBe('INVALID_GRANT');
  });

  it('refuses an expired code', async () => {
    const u = await makeUser(t.ctx);
    const { verifier, challenge } = pkce();
    const code = await issueCode(u, challenge);
    await t.ctx.db
      .update(authCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authCodes.codeHash, hashCode(code)));
    const res = await post('/token', { code, code_verifier: verifier, redirect_uri: LOGIN });
    expect(res.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(res.json()).error.code).toBe('INVALID_GRANT');
  });

  it('refuses a redirect_uri other than the one the code was issued for, and unknown codes', async () => {
    const u = await makeUser(t.ctx);
    const { verifier, challenge } = pkce();
    const code = await issueCode(u, challenge);
    const res = await post('/token', {
      code,
      code_verifier: verifier,
      redirect_uri: 'https://evil.example/auth/login',
    });
    expect(res.statusCode).toBe(400);
    const unknown = await post('/token', { code: 'nope', code_verifier: verifier, redirect_uri: LOGIN });
    expect(unknown.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(unknown.json()).error.code).toBe('INVALID_GRANT');
    const bad = await post('/token', { code, code_verifier: 'short', redirect_uri: LOGIN });
    expect(bad.statusCode).toBe(400);
  });

  it('replaying a used code is refused and revokes the session the first exchange minted', async () => {
    const u = await makeUser(t.ctx);
    const { verifier, challenge } = pkce();
    const code = await issueCode(u, challenge);
    const first = await post('/token', { code, code_verifier: verifier, redirect_uri: LOGIN });
    expect(first.statusCode).toBe(200);
    const tokens = CodeTokenResponseSchema.parse(first.json());
    const replay = await post('/token', { code, code_verifier: verifier, redirect_uri: LOGIN });
    expect(replay.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(replay.json()).error.code).toBe('INVALID_GRANT');
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/${encodeURIComponent(u.user.id)}`,
      headers: { authorization: `Bearer ${tokens.idToken}` },
    });
    expect(me.statusCode).toBe(401);
    // The web session that started the handoff is untouched.
    expect(await t.ctx.identity.isSessionActive(u.sessionId)).toBe(true);
  });

  it('concurrent exchanges of one code: at most one wins and no session survives a replay', async () => {
    const u = await makeUser(t.ctx);
    const { verifier, challenge } = pkce();
    const code = await issueCode(u, challenge);
    const results = await Promise.all(
      [1, 2, 3].map(() => post('/token', { code, code_verifier: verifier, redirect_uri: LOGIN })),
    );
    expect(results.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(1);
    const editorSessions = (await t.ctx.identity.listSessions(u.uid)).filter((s) => s.kind === 'editor');
    for (const s of editorSessions) expect(await t.ctx.identity.isSessionActive(s.id)).toBe(false);
  });

  it('answers CORS preflight for the web origin only, with credentials', async () => {
    const ok = await t.app.inject({
      method: 'OPTIONS',
      url: `${BASE}/login_submit`,
      headers: {
        origin: WEB,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(WEB);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');

    const evil = await t.app.inject({
      method: 'OPTIONS',
      url: `${BASE}/login_submit`,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    expect(evil.statusCode).toBeGreaterThanOrEqual(400);

    const u = await makeUser(t.ctx);
    const res = await post('/login_submit', submitBody(u, pkce().challenge), {
      origin: 'https://evil.example',
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
