import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  IdentityErrorBodySchema,
  PasswordPolicySchema,
  RefreshTokenResponseSchema,
} from '@assistente/contracts';
import { count, eq } from 'drizzle-orm';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Channels } from '../../context.ts';
import { identityAccounts, identitySessions, oobCodes, refreshTokens } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { buildTestApp } from '../../test/app.ts';
import {
  buildIdentityTestApp,
  GOOD_PASSWORD,
  type IdentityTestApp,
  uniqueEmail,
} from '../../test/identity.ts';
import { startSmtpSink } from '../../test/smtp-sink.ts';
import { hashSecret } from './crypto.ts';
import { DEFAULT_LIMITS, REUSE_GRACE_MS } from './service.ts';
import { purgeStale } from './store.ts';

const SIGN_IN = '/identity/v1/accounts:signInWithPassword';
const TOKEN = '/identity/v1/token';
const REVOKE = '/identity/v2/accounts:revokeToken';
const SEND_OOB = '/identity/v1/accounts:sendOobCode';
const RESET = '/identity/v1/accounts:resetPassword';
const UPDATE = '/identity/v1/accounts:update';
const LOOKUP = '/identity/v1/accounts:lookup';

let ipCounter = 0;
/** A fresh client address, so per-IP counters of one test never reach another. */
const nextIp = () => `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;

function helpers(get: () => IdentityTestApp) {
  const post = (url: string, payload: unknown, ip = nextIp()) =>
    get().app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, remoteAddress: ip });
  const makeUser = async (opts: { password?: string; displayName?: string } = {}) => {
    const email = uniqueEmail();
    const account = await get().identity.createAccount({
      email,
      password: opts.password ?? GOOD_PASSWORD,
      displayName: opts.displayName ?? 'Ana Souza',
    });
    return { email, uid: account.uid };
  };
  const signIn = async (email: string, password = GOOD_PASSWORD, ip = nextIp()) => {
    const res = await post(SIGN_IN, { email, password, returnSecureToken: true }, ip);
    return res;
  };
  const signedIn = async (email: string, password = GOOD_PASSWORD) => {
    const res = await signIn(email, password);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { idToken: string; refreshToken: string; localId: string; email: string };
  };
  const refresh = (refreshToken: string) =>
    post(TOKEN, { grant_type: 'refresh_token', refresh_token: refreshToken });
  const errorOf = (res: { statusCode: number; json(): unknown }) => {
    const body = IdentityErrorBodySchema.parse(res.json());
    return body.error.message;
  };
  const sessionCount = async () => {
    const [row] = await get().ctx.db.select({ n: count() }).from(identitySessions);
    return row?.n ?? 0;
  };
  return { post, makeUser, signIn, signedIn, refresh, errorOf, sessionCount };
}

describe('identity over HTTP', () => {
  let t: IdentityTestApp;
  beforeAll(async () => {
    t = await buildIdentityTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const { post, makeUser, signIn, signedIn, refresh, errorOf, sessionCount } = helpers(() => t);

  describe('accounts:signInWithPassword', () => {
    it('answers Identity Toolkit fields and an id token with the documented claims', async () => {
      const { email, uid } = await makeUser();
      const res = await signIn(email.toUpperCase());
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        localId: uid,
        email,
        displayName: 'Ana Souza',
        expiresIn: '3600',
        registered: true,
      });
      expect(body.refreshToken).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      const header = decodeProtectedHeader(body.idToken);
      expect(header.alg).toBe('ES256');
      expect(header.kid).toBeTruthy();
      const claims = decodeJwt(body.idToken);
      expect(claims).toMatchObject({
        iss: 'http://localhost:3999/identity',
        aud: 'assistente',
        sub: uid,
        user_id: uid,
        email,
        email_verified: false,
        name: 'Ana Souza',
        firebase: { identities: { email: [email.toLowerCase()] }, sign_in_provider: 'password' },
      });
      expect(claims.exp).toBe((claims.iat ?? 0) + 3600);
      expect(typeof claims.auth_time).toBe('number');
      expect(typeof claims.sid).toBe('string');
      expect(await t.identity.isSessionActive(claims.sid as string)).toBe(true);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('answers on the Firebase SDK emulator path with any api key', async () => {
      const { email } = await makeUser();
      const res = await post('/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=anything', {
        email,
        password: GOOD_PASSWORD,
        returnSecureToken: true,
      });
      expect(res.statusCode).toBe(200);
    });

    it('answers a wrong password and an unknown email identically', async () => {
      const { email } = await makeUser();
      const wrong = await signIn(email, 'not the password at all');
      const unknown = await signIn(uniqueEmail('nobody'), 'not the password at all');
      expect(wrong.statusCode).toBe(400);
      expect(unknown.statusCode).toBe(400);
      expect(wrong.body).toBe(unknown.body);
      expect(wrong.json()).toEqual({
        error: {
          code: 400,
          message: 'INVALID_LOGIN_CREDENTIALS',
          errors: [{ message: 'INVALID_LOGIN_CREDENTIALS', domain: 'global', reason: 'invalid' }],
        },
      });
    });

    it('refuses an account that has no password yet like a wrong password', async () => {
      const email = uniqueEmail('invited');
      await t.identity.createAccount({ email });
      expect(errorOf(await signIn(email, GOOD_PASSWORD))).toBe('INVALID_LOGIN_CREDENTIALS');
    });

    it('answers USER_DISABLED only once the password is right, and disabling ends every session', async () => {
      const { email, uid } = await makeUser();
      const tokens = await signedIn(email);
      await t.identity.setDisabled(uid, true);
      expect(errorOf(await signIn(email, 'wrong password here'))).toBe('INVALID_LOGIN_CREDENTIALS');
      expect(errorOf(await signIn(email))).toBe('USER_DISABLED');
      expect(errorOf(await refresh(tokens.refreshToken))).toBe('USER_DISABLED');
      expect(await t.identity.isSessionActive(decodeJwt(tokens.idToken).sid as string)).toBe(false);
      await t.identity.setDisabled(uid, false);
      expect((await signIn(email)).statusCode).toBe(200);
      // Re-enabling does not bring old sessions back.
      expect(errorOf(await refresh(tokens.refreshToken))).toBe('TOKEN_EXPIRED');
    });
  });

  describe('token (refresh)', () => {
    it('rotates the refresh token on every use, with form and JSON bodies', async () => {
      const { email, uid } = await makeUser();
      const first = await signedIn(email);
      const form = await t.app.inject({
        method: 'POST',
        url: '/securetoken.googleapis.com/v1/token?key=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=refresh_token&refresh_token=${encodeURIComponent(first.refreshToken)}`,
      });
      expect(form.statusCode, form.body).toBe(200);
      const second = RefreshTokenResponseSchema.parse(form.json());
      expect(second).toMatchObject({
        token_type: 'Bearer',
        expires_in: '3600',
        user_id: uid,
        project_id: 'assistente',
      });
      expect(second.access_token).toBe(second.id_token);
      expect(second.refresh_token).not.toBe(first.refreshToken);
      expect(decodeJwt(second.id_token).sid).toBe(decodeJwt(first.idToken).sid);
      expect(decodeJwt(second.id_token).auth_time).toBe(decodeJwt(first.idToken).auth_time);

      const json = await refresh(second.refresh_token);
      expect(json.statusCode).toBe(200);
      expect(json.json().refresh_token).not.toBe(second.refresh_token);
    });

    it('revokes the whole session when a rotated token comes back after its successor was used', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      const rotated = (await refresh(first.refreshToken)).json();
      const newest = (await refresh(rotated.refresh_token)).json();
      const replay = await refresh(first.refreshToken);
      expect(errorOf(replay)).toBe('TOKEN_EXPIRED');
      expect(errorOf(await refresh(newest.refresh_token))).toBe('TOKEN_EXPIRED');
      expect(await t.identity.isSessionActive(sid)).toBe(false);
      const [row] = await t.ctx.db.select().from(identitySessions).where(eq(identitySessions.id, sid));
      expect(row?.revokedReason).toBe('refresh_token_reuse');
    });

    it('revokes the whole session when a rotated token comes back after the grace period', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      const rotated = (await refresh(first.refreshToken)).json();
      await t.ctx.db
        .update(refreshTokens)
        .set({ rotatedAt: new Date(Date.now() - REUSE_GRACE_MS - 1000) })
        .where(eq(refreshTokens.tokenHash, hashSecret(first.refreshToken)));
      expect(errorOf(await refresh(first.refreshToken))).toBe('TOKEN_EXPIRED');
      expect(errorOf(await refresh(rotated.refresh_token))).toBe('TOKEN_EXPIRED');
      expect(await t.identity.isSessionActive(sid)).toBe(false);
    });

    it('lets a rotated token stand in for an answer its page never received, once per lost answer', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      // The page unloaded while this answer was on its way: its next load only has `first`.
      const lost = RefreshTokenResponseSchema.parse((await refresh(first.refreshToken)).json());
      const again = await refresh(first.refreshToken);
      expect(again.statusCode, again.body).toBe(200);
      const second = RefreshTokenResponseSchema.parse(again.json());
      expect(decodeJwt(second.id_token).sid).toBe(sid);
      // Interrupted a second time: still the same page's token, still no theft.
      const third = RefreshTokenResponseSchema.parse((await refresh(first.refreshToken)).json());
      expect(third.refresh_token).not.toBe(second.refresh_token);
      const carriedOn = await refresh(third.refresh_token);
      expect(carriedOn.statusCode).toBe(200);
      expect(await t.identity.isSessionActive(sid)).toBe(true);
      // A retired successor is a tripwire: whoever holds it is not this page.
      expect(errorOf(await refresh(lost.refresh_token))).toBe('TOKEN_EXPIRED');
      expect(await t.identity.isSessionActive(sid)).toBe(false);
      const [row] = await t.ctx.db.select().from(identitySessions).where(eq(identitySessions.id, sid));
      expect(row?.revokedReason).toBe('refresh_token_reuse');
    });

    it('a thief replaying within the grace period is found out when the owner refreshes', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      const owner = RefreshTokenResponseSchema.parse((await refresh(first.refreshToken)).json());
      const thief = RefreshTokenResponseSchema.parse((await refresh(first.refreshToken)).json());
      expect(errorOf(await refresh(owner.refresh_token))).toBe('TOKEN_EXPIRED');
      expect(errorOf(await refresh(thief.refresh_token))).toBe('TOKEN_EXPIRED');
      expect(await t.identity.isSessionActive(sid)).toBe(false);
    });

    it('updates last_used_at', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      const past = new Date(Date.now() - 3600_000);
      await t.ctx.db.update(identitySessions).set({ lastUsedAt: past }).where(eq(identitySessions.id, sid));
      expect((await refresh(first.refreshToken)).statusCode).toBe(200);
      const [row] = await t.ctx.db.select().from(identitySessions).where(eq(identitySessions.id, sid));
      expect(row?.lastUsedAt.getTime()).toBeGreaterThan(past.getTime() + 1000);
    });

    it('ends a session idle for more than 30 days', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      await t.ctx.db
        .update(identitySessions)
        .set({ lastUsedAt: new Date(Date.now() - 31 * 86_400_000) })
        .where(eq(identitySessions.id, sid));
      expect(errorOf(await refresh(first.refreshToken))).toBe('TOKEN_EXPIRED');
    });

    it('answers unknown, missing and malformed requests with their codes', async () => {
      expect(errorOf(await refresh('x'.repeat(43)))).toBe('INVALID_REFRESH_TOKEN');
      expect(errorOf(await post(TOKEN, { grant_type: 'refresh_token' }))).toBe('MISSING_REFRESH_TOKEN');
      expect(errorOf(await post(TOKEN, { grant_type: 'password', refresh_token: 'x' }))).toBe(
        'INVALID_GRANT_TYPE',
      );
      expect(errorOf(await post(TOKEN, { grant_type: 'refresh_token', refresh_token: 12 }))).toBe(
        'INVALID_REFRESH_TOKEN',
      );
    });
  });

  describe('v2/accounts:revokeToken', () => {
    it('ends the session of the token and tells other services on the bus', async () => {
      const { email, uid } = await makeUser();
      const tokens = await signedIn(email);
      const sid = decodeJwt(tokens.idToken).sid as string;
      expect(await t.identity.isSessionActive(sid)).toBe(true);
      const seen: unknown[] = [];
      const off = t.ctx.bus.subscribe(Channels.authInvalidate, (m) => seen.push(m));
      const res = await post(REVOKE, { token: tokens.refreshToken });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      expect(await t.identity.isSessionActive(sid)).toBe(false);
      expect(errorOf(await refresh(tokens.refreshToken))).toBe('TOKEN_EXPIRED');
      expect(errorOf(await post(LOOKUP, { idToken: tokens.idToken }))).toBe('TOKEN_EXPIRED');
      await expect.poll(() => seen).toContainEqual({ uid });
      off();
    });

    it('accepts an unknown token without revealing anything', async () => {
      const res = await post(REVOKE, { token: 'not-a-token' });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('session state cache', () => {
    it('keeps isSessionActive in memory and drops it on the bus message', async () => {
      const { email, uid } = await makeUser();
      const tokens = await signedIn(email);
      const sid = decodeJwt(tokens.idToken).sid as string;
      expect(await t.identity.isSessionActive(sid)).toBe(true);
      // Behind the service's back (as another replica would): the cache still says active…
      await t.ctx.db
        .update(identitySessions)
        .set({ revokedAt: new Date() })
        .where(eq(identitySessions.id, sid));
      expect(await t.identity.isSessionActive(sid)).toBe(true);
      // …until the invalidation arrives on the bus.
      await t.ctx.bus.publish(Channels.authInvalidate, { uid });
      await expect.poll(() => t.identity.isSessionActive(sid)).toBe(false);
    });

    it('answers false for unknown and malformed session ids', async () => {
      expect(await t.identity.isSessionActive('nope')).toBe(false);
      expect(await t.identity.isSessionActive('')).toBe(false);
      expect(await t.identity.isSessionActive('x'.repeat(500))).toBe(false);
    });
  });

  describe('accounts:update', () => {
    it('sets a new password, answers new tokens for the calling session and revokes every other one', async () => {
      const { email } = await makeUser();
      const a = await signedIn(email);
      const b = await signedIn(email);
      const res = await post(UPDATE, {
        idToken: a.idToken,
        password: 'a brand new passphrase',
        returnSecureToken: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.idToken).toBeTruthy();
      expect(body.refreshToken).toBeTruthy();
      expect(decodeJwt(body.idToken).sid).toBe(decodeJwt(a.idToken).sid);
      expect(errorOf(await refresh(b.refreshToken))).toBe('TOKEN_EXPIRED');
      expect(await t.identity.isSessionActive(decodeJwt(b.idToken).sid as string)).toBe(false);
      expect((await refresh(body.refreshToken)).statusCode).toBe(200);
      expect(errorOf(await signIn(email, GOOD_PASSWORD))).toBe('INVALID_LOGIN_CREDENTIALS');
      expect((await signIn(email, 'a brand new passphrase')).statusCode).toBe(200);
    });

    it('asks for a recent sign-in before changing the password', async () => {
      const { email } = await makeUser();
      const a = await signedIn(email);
      const sid = decodeJwt(a.idToken).sid as string;
      await t.ctx.db
        .update(identitySessions)
        .set({ authTime: new Date(Date.now() - 10 * 60_000) })
        .where(eq(identitySessions.id, sid));
      const res = await post(UPDATE, { idToken: a.idToken, password: 'a brand new passphrase' });
      expect(errorOf(res)).toBe('CREDENTIAL_TOO_OLD_LOGIN_AGAIN');
      expect((await signIn(email)).statusCode).toBe(200);
    });

    it('changes the display name alone without touching sessions', async () => {
      const { email } = await makeUser();
      const a = await signedIn(email);
      const res = await post(UPDATE, { idToken: a.idToken, displayName: 'Ana S.' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ displayName: 'Ana S.', email });
      expect(res.json().idToken).toBeUndefined();
      const lookup = await post(LOOKUP, { idToken: a.idToken });
      expect(lookup.json().users[0].displayName).toBe('Ana S.');
      expect((await refresh(a.refreshToken)).statusCode).toBe(200);
    });

    it('refuses passwords outside the policy and changes nothing', async () => {
      const { email } = await makeUser();
      const a = await signedIn(email);
      for (const [password, reason] of [
        ['abc', 'at least 6'],
        ['password', 'too common'],
        ['123456', 'too common'],
        ['P@ssw0rd2024!', 'too common'],
        [email, 'email'],
        ['x'.repeat(4097), 'at most 4096'],
      ] as const) {
        const res = await post(UPDATE, { idToken: a.idToken, password });
        expect(res.statusCode).toBe(400);
        const message = errorOf(res);
        expect(message.startsWith('PASSWORD_DOES_NOT_MEET_REQUIREMENTS : ')).toBe(true);
        expect(message).toContain(reason);
      }
      expect((await signIn(email)).statusCode).toBe(200);
      expect((await refresh(a.refreshToken)).statusCode).toBe(200);
    });

    it('refuses a bad id token', async () => {
      expect(errorOf(await post(UPDATE, { idToken: 'garbage', password: 'a brand new passphrase' }))).toBe(
        'INVALID_ID_TOKEN',
      );
      expect(errorOf(await post(UPDATE, { password: 'a brand new passphrase' }))).toBe('INVALID_ID_TOKEN');
    });
  });

  describe('accounts:lookup', () => {
    it('answers the account as the Firebase SDK reads it', async () => {
      const { email, uid } = await makeUser();
      const a = await signedIn(email);
      const res = await post(LOOKUP, { idToken: a.idToken });
      expect(res.statusCode).toBe(200);
      const [user] = res.json().users;
      expect(user).toMatchObject({
        localId: uid,
        email,
        emailVerified: false,
        displayName: 'Ana Souza',
        providerUserInfo: [{ providerId: 'password', email, rawId: email, federatedId: email }],
      });
      expect(Number(user.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Number(user.lastLoginAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(typeof user.passwordUpdatedAt).toBe('number');
      expect(user.validSince).toMatch(/^\d+$/);
    });

    it('answers USER_NOT_FOUND once the account is deleted', async () => {
      const { email, uid } = await makeUser();
      const a = await signedIn(email);
      await t.identity.deleteAccount(uid);
      expect(errorOf(await post(LOOKUP, { idToken: a.idToken }))).toBe('USER_NOT_FOUND');
      expect(errorOf(await refresh(a.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
      expect(await t.identity.isSessionActive(decodeJwt(a.idToken).sid as string)).toBe(false);
    });
  });

  describe('password policy and keys', () => {
    it('publishes the password policy', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/identitytoolkit.googleapis.com/v2/passwordPolicy?key=k',
      });
      expect(res.statusCode).toBe(200);
      const policy = PasswordPolicySchema.parse(res.json());
      expect(policy).toMatchObject({
        customStrengthOptions: { minPasswordLength: 6 },
        enforcementState: 'ENFORCE',
        schemaVersion: 1,
      });
      expect((await t.app.inject({ method: 'GET', url: '/identity/v2/passwordPolicy' })).json()).toEqual(
        policy,
      );
    });

    it('verifies a minted token against the published JWKS and issuer metadata', async () => {
      const { email, uid } = await makeUser();
      const a = await signedIn(email);
      const jwks = (await t.app.inject({ method: 'GET', url: '/identity/jwks.json' })).json();
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0].d).toBeUndefined();
      const meta = (
        await t.app.inject({ method: 'GET', url: '/identity/.well-known/openid-configuration' })
      ).json();
      expect(meta.issuer).toBe('http://localhost:3999/identity');
      expect(meta.jwks_uri).toBe('http://localhost:3999/identity/jwks.json');
      const { payload, protectedHeader } = await jwtVerify(a.idToken, createLocalJWKSet(jwks), {
        issuer: meta.issuer,
        audience: 'assistente',
      });
      expect(payload.sub).toBe(uid);
      expect(protectedHeader.kid).toBe(jwks.keys[0].kid);
      expect((await t.identity.verifyIdToken(a.idToken)).sub).toBe(uid);
    });

    it('keeps the generated key in DATA_DIR with mode 0600', () => {
      const file = path.join(t.dataDir, 'keys', 'identity.json');
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });

    it('refuses tampered, foreign and garbage tokens in verifyIdToken', async () => {
      const { email } = await makeUser();
      const a = await signedIn(email);
      const [h, p, s] = a.idToken.split('.');
      const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
      const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${s}`;
      for (const token of [forged, 'garbage', '', `${h}.${p}.`]) {
        await expect(t.identity.verifyIdToken(token)).rejects.toSatisfy(
          (e: unknown) => e instanceof AppError && e.code === 'UNAUTHENTICATED',
        );
      }
    });
  });

  describe('bad input', () => {
    it('answers missing fields and wrong types with their codes and creates no session', async () => {
      const before = await sessionCount();
      const cases: Array<[unknown, string]> = [
        [{ password: 'x' }, 'MISSING_EMAIL'],
        [{ email: '', password: 'x' }, 'MISSING_EMAIL'],
        [{ email: 42, password: 'x' }, 'INVALID_EMAIL'],
        [{ email: 'not-an-email', password: 'x' }, 'INVALID_EMAIL'],
        [{ email: 'a@b.com' }, 'MISSING_PASSWORD'],
        [{ email: 'a@b.com', password: '' }, 'MISSING_PASSWORD'],
        [{ email: 'a@b.com', password: ['x'] }, 'MISSING_PASSWORD'],
        [{ email: 'a@b.com', password: 'x', returnSecureToken: 'yes' }, 'INVALID_ARGUMENT'],
      ];
      for (const [payload, code] of cases) {
        const res = await post(SIGN_IN, payload);
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).split(' : ')[0]).toBe(code);
      }
      expect(await sessionCount()).toBe(before);
    });

    it('answers invalid JSON, non-object bodies, other content types and huge bodies with 400', async () => {
      const before = await sessionCount();
      const inject = (payload: string, contentType = 'application/json') =>
        t.app.inject({ method: 'POST', url: SIGN_IN, payload, headers: { 'content-type': contentType } });
      const huge = JSON.stringify({ email: 'a@b.com', password: 'x'.repeat(200_000) });
      for (const res of [
        await inject('{"email":'),
        await inject('[1,2,3]'),
        await inject('"text"'),
        await inject('email=a', 'text/plain'),
        await inject(huge),
      ]) {
        expect(res.statusCode, res.body).toBe(400);
        expect(errorOf(res).startsWith('INVALID_ARGUMENT')).toBe(true);
      }
      expect(errorOf(await inject(huge))).toContain('too large');
      expect(await sessionCount()).toBe(before);
    });

    it('answers the other calls with their codes', async () => {
      expect(errorOf(await post(SEND_OOB, { email: 'a@b.com' }))).toBe('MISSING_REQ_TYPE');
      expect(errorOf(await post(SEND_OOB, { requestType: 'VERIFY_EMAIL', email: 'a@b.com' }))).toBe(
        'INVALID_REQ_TYPE',
      );
      expect(errorOf(await post(SEND_OOB, { requestType: 'PASSWORD_RESET' }))).toBe('MISSING_EMAIL');
      expect(errorOf(await post(RESET, {}))).toBe('MISSING_OOB_CODE');
      expect(errorOf(await post(RESET, { oobCode: 5 }))).toBe('INVALID_OOB_CODE');
      expect(errorOf(await post(LOOKUP, {}))).toBe('INVALID_ID_TOKEN');
      expect(errorOf(await post('/identity/v1/accounts:signUp', { email: 'a@b.com', password: 'x' }))).toBe(
        'OPERATION_NOT_ALLOWED',
      );
    });

    it('answers CORS preflights for browser clients on other origins', async () => {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/identitytoolkit.googleapis.com/v1/accounts:lookup',
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-headers'])).toContain('x-firebase-locale');
    });
  });

  describe('brute force', () => {
    it('locks an account after 5 failures and then answers exactly like a wrong password, even to the right one', async () => {
      const { email } = await makeUser();
      const unknownEmail = uniqueEmail('ghost');
      const bodies = new Set<string>();
      for (let i = 0; i < DEFAULT_LIMITS.account.max; i++) {
        bodies.add((await signIn(email, `wrong-password-${i}`)).body);
        bodies.add((await signIn(unknownEmail, `wrong-password-${i}`)).body);
      }
      const locked = await signIn(email, GOOD_PASSWORD);
      bodies.add(locked.body);
      bodies.add((await signIn(unknownEmail, GOOD_PASSWORD)).body);
      expect(locked.statusCode).toBe(400);
      expect(bodies.size).toBe(1);
      expect(errorOf(locked)).toBe('INVALID_LOGIN_CREDENTIALS');
    });

    it('lifts the lock after a password reset', async () => {
      const { email, uid } = await makeUser();
      for (let i = 0; i < DEFAULT_LIMITS.account.max; i++) await signIn(email, `wrong-password-${i}`);
      expect(errorOf(await signIn(email))).toBe('INVALID_LOGIN_CREDENTIALS');
      await t.identity.sendPasswordResetMail(email, {
        locale: 'en',
        kind: 'reset',
        linkBase: t.config.publicUrl,
      });
      // The code went to the outbox; read it back from there.
      const code = await latestOutboxCode(t, email);
      expect((await post(RESET, { oobCode: code, newPassword: 'another good passphrase' })).statusCode).toBe(
        200,
      );
      expect((await signIn(email, 'another good passphrase')).statusCode).toBe(200);
      expect(uid).toBeTruthy();
    });

    it('answers TOO_MANY_ATTEMPTS_TRY_LATER to an IP over its limit, and only to that IP', async () => {
      const { email } = await makeUser();
      const ip = nextIp();
      for (let i = 0; i < DEFAULT_LIMITS.ip.max; i++) {
        await signIn(uniqueEmail('spray'), `wrong-password-${i}`, ip);
      }
      expect(errorOf(await signIn(email, GOOD_PASSWORD, ip))).toBe('TOO_MANY_ATTEMPTS_TRY_LATER');
      expect((await signIn(email, GOOD_PASSWORD, nextIp())).statusCode).toBe(200);
    });

    it('takes about as long for an unknown email as for a known one', async () => {
      const users = await Promise.all(Array.from({ length: 9 }, () => makeUser()));
      const time = async (e: string) => {
        const start = performance.now();
        const res = await signIn(e, 'wrong password, timing test');
        expect(errorOf(res)).toBe('INVALID_LOGIN_CREDENTIALS');
        return performance.now() - start;
      };
      for (let i = 0; i < 3; i++) {
        await time(users[0]?.email ?? '');
        await time(uniqueEmail('warm'));
      }
      const known: number[] = [];
      const unknown: number[] = [];
      // One failure per account: none gets locked, which would change nothing anyway.
      for (const u of users) {
        known.push(await time(u.email));
        unknown.push(await time(uniqueEmail('timing')));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
      const k = median(known);
      const u = median(unknown);
      // Without the dummy hash an unknown email answers in a small fraction of a known one's time (no argon2id at
      // all): bounds this loose hold on a loaded machine and still catch that.
      expect(u).toBeGreaterThan(k * 0.25);
      expect(u).toBeLessThan(k * 4 + 50);
    });
  });

  describe('service API', () => {
    it('refuses a second account with the same email in another case', async () => {
      const email = uniqueEmail('dup');
      await t.identity.createAccount({ email });
      await expect(t.identity.createAccount({ email: email.toUpperCase() })).rejects.toSatisfy(
        (e: unknown) => e instanceof AppError && e.code === 'CONFLICT',
      );
      expect((await t.identity.findAccountByEmail(email.toUpperCase()))?.email).toBe(email);
    });

    it('refuses a weak password with VALIDATION_FAILED and stores nothing', async () => {
      const email = uniqueEmail('weak');
      await expect(t.identity.createAccount({ email, password: 'qwerty123' })).rejects.toSatisfy(
        (e: unknown) => e instanceof AppError && e.code === 'VALIDATION_FAILED',
      );
      expect(await t.identity.findAccountByEmail(email)).toBeUndefined();
    });

    it('issues, lists and revokes sessions; setPassword and deleteAccount end them all', async () => {
      const { email, uid } = await makeUser();
      const editor = await t.identity.issueSession(uid, { kind: 'editor', name: 'VS Code' });
      const web = await signedIn(email);
      const list = await t.identity.listSessions(uid);
      expect(list.map((s) => s.kind).sort()).toEqual(['editor', 'web']);
      expect(list.find((s) => s.kind === 'editor')?.name).toBe('VS Code');
      expect(list.find((s) => s.kind === 'web')?.ip).toMatch(/^10\./);

      await t.identity.revokeSession(editor.sessionId, 'user_signed_out');
      expect(await t.identity.isSessionActive(editor.sessionId)).toBe(false);
      expect((await t.identity.listSessions(uid)).map((s) => s.kind)).toEqual(['web']);

      const again = await t.identity.issueSession(uid, { kind: 'editor', name: 'VS Code' });
      await t.identity.revokeAllSessions(uid, 'sign_out_everywhere', { except: again.sessionId });
      expect(await t.identity.isSessionActive(again.sessionId)).toBe(true);
      expect(await t.identity.isSessionActive(decodeJwt(web.idToken).sid as string)).toBe(false);

      await t.identity.setPassword(uid, 'yet another passphrase');
      expect(await t.identity.isSessionActive(again.sessionId)).toBe(false);
      expect((await signIn(email, 'yet another passphrase')).statusCode).toBe(200);

      const last = await t.identity.issueSession(uid, { kind: 'web', name: 'x' });
      await t.identity.deleteAccount(uid);
      expect(await t.identity.isSessionActive(last.sessionId)).toBe(false);
      expect(await t.identity.findAccount(uid)).toBeUndefined();
    });

    it('finds the session of a current refresh token without rotating it', async () => {
      const { email, uid } = await makeUser();
      const a = await signedIn(email);
      const sid = decodeJwt(a.idToken).sid as string;
      expect(await t.identity.findRefreshTokenSession(a.refreshToken)).toEqual({ sessionId: sid, uid });
      expect(await t.identity.findRefreshTokenSession(a.refreshToken)).toEqual({ sessionId: sid, uid });
      const next = (await refresh(a.refreshToken)).json();
      expect(await t.identity.findRefreshTokenSession(a.refreshToken)).toBeUndefined();
      expect(await t.identity.findRefreshTokenSession(next.refresh_token)).toEqual({ sessionId: sid, uid });
      await t.identity.revokeSession(sid, 'test');
      expect(await t.identity.findRefreshTokenSession(next.refresh_token)).toBeUndefined();
      expect(await t.identity.findRefreshTokenSession('nope')).toBeUndefined();
    });

    it('purges long-revoked sessions and old codes, and keeps the rest', async () => {
      const { email, uid } = await makeUser();
      const old = await t.identity.issueSession(uid, { kind: 'web', name: 'old' });
      const live = await signedIn(email);
      await t.identity.sendPasswordResetMail(email, {
        locale: 'en',
        kind: 'reset',
        linkBase: t.config.publicUrl,
      });
      const longAgo = new Date(Date.now() - 40 * 86_400_000);
      await t.ctx.db
        .update(identitySessions)
        .set({ revokedAt: longAgo })
        .where(eq(identitySessions.id, old.sessionId));
      await t.ctx.db.update(oobCodes).set({ expiresAt: longAgo }).where(eq(oobCodes.uid, uid));
      const now = Date.now();
      await purgeStale(t.ctx.db, {
        codesBefore: new Date(now - 86_400_000),
        revokedBefore: new Date(now - 30 * 86_400_000),
        idleBefore: new Date(now - 60 * 86_400_000),
      });
      const sessions = await t.ctx.db.select().from(identitySessions).where(eq(identitySessions.uid, uid));
      expect(sessions.map((s) => s.id)).toEqual([decodeJwt(live.idToken).sid]);
      expect(await t.ctx.db.select().from(oobCodes).where(eq(oobCodes.uid, uid))).toEqual([]);
      expect((await refresh(live.refreshToken)).statusCode).toBe(200);
    });

    it('makes Firebase-like uids', async () => {
      const { uid } = await makeUser();
      expect(uid).toMatch(/^[0-9A-Za-z]{28}$/);
    });

    it('writes invitations with their own wording and a 72 hour link', async () => {
      const email = uniqueEmail('invitee');
      const { uid } = await t.identity.createAccount({ email, displayName: 'Bia' });
      await t.identity.sendPasswordResetMail(email, {
        locale: 'pt-BR',
        kind: 'invite',
        linkBase: t.config.publicUrl,
      });
      const eml = latestOutboxMail(t, email);
      expect(eml).toContain('convidado');
      const [row] = await t.ctx.db.select().from(oobCodes).where(eq(oobCodes.uid, uid));
      expect(row?.requestType).toBe('INVITE');
      expect((row?.expiresAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(71 * 3600_000);
      const code = await latestOutboxCode(t, email);
      expect((await post(RESET, { oobCode: code, newPassword: 'my first passphrase' })).statusCode).toBe(200);
      const [account] = await t.ctx.db.select().from(identityAccounts).where(eq(identityAccounts.uid, uid));
      expect(account?.emailVerified).toBe(true);
    });
  });
});

/** The newest .eml in the outbox addressed to `email`. */
function latestOutboxMail(t: IdentityTestApp, email: string): string {
  const dir = path.join(t.dataDir, 'outbox');
  const files = readdirSync(dir).sort().reverse();
  for (const f of files) {
    const text = readFileSync(path.join(dir, f), 'utf8');
    if (text.includes(`To: ${email}`)) return text;
  }
  throw new Error(`no mail to ${email} in the outbox`);
}

async function latestOutboxCode(t: IdentityTestApp, email: string): Promise<string> {
  await t.identity.drain();
  const text = latestOutboxMail(t, email)
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
  const code = /oobCode=([A-Za-z0-9_%-]+)/.exec(text)?.[1];
  if (!code) throw new Error('no oobCode in the mail');
  return decodeURIComponent(code);
}

describe('password reset through a real SMTP server', () => {
  let t: IdentityTestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildIdentityTestApp({
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Assistente <no-reply@example.com>' },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });
  const { post, makeUser, signIn, signedIn, refresh, errorOf } = helpers(() => t);

  const requestReset = async (email: string, extra: Record<string, unknown> = {}) => {
    const res = await post(SEND_OOB, { requestType: 'PASSWORD_RESET', email, ...extra });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email });
  };
  const codeFrom = (text: string) => {
    const link = /http:\/\/localhost:3999\/auth\/reset-password\?oobCode=[A-Za-z0-9_%-]+/.exec(text)?.[0];
    if (!link) throw new Error(`no reset link in:\n${text}`);
    return decodeURIComponent(new URL(link).searchParams.get('oobCode') ?? '');
  };

  it('mails a link that checks, sets the password once, and ends every session', async () => {
    const { email } = await makeUser();
    const before = await signedIn(email);
    await requestReset(email);
    const mail = await sink.waitFor((m) => m.to.includes(email));
    expect(mail.from).toBe('no-reply@example.com');
    expect(mail.subject).toContain('Redefina sua senha');
    const oobCode = codeFrom(mail.text);

    const check = await post(RESET, { oobCode });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ email, requestType: 'PASSWORD_RESET' });

    const weak = await post(RESET, { oobCode, newPassword: '12345' });
    expect(errorOf(weak).split(' : ')[0]).toBe('PASSWORD_DOES_NOT_MEET_REQUIREMENTS');

    const set = await post(RESET, { oobCode, newPassword: 'a fresh passphrase' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ email, requestType: 'PASSWORD_RESET' });

    expect(errorOf(await refresh(before.refreshToken))).toBe('TOKEN_EXPIRED');
    expect(await t.identity.isSessionActive(decodeJwt(before.idToken).sid as string)).toBe(false);
    expect(errorOf(await signIn(email, GOOD_PASSWORD))).toBe('INVALID_LOGIN_CREDENTIALS');
    expect((await signIn(email, 'a fresh passphrase')).statusCode).toBe(200);

    expect(errorOf(await post(RESET, { oobCode, newPassword: 'and one more passphrase' }))).toBe(
      'INVALID_OOB_CODE',
    );
    expect(errorOf(await post(RESET, { oobCode }))).toBe('INVALID_OOB_CODE');
  });

  it('refuses an expired code', async () => {
    const { email, uid } = await makeUser();
    await requestReset(email);
    const oobCode = codeFrom((await sink.waitFor((m) => m.to.includes(email))).text);
    await t.ctx.db
      .update(oobCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oobCodes.uid, uid));
    expect(errorOf(await post(RESET, { oobCode }))).toBe('EXPIRED_OOB_CODE');
    expect(errorOf(await post(RESET, { oobCode, newPassword: 'a fresh passphrase' }))).toBe(
      'EXPIRED_OOB_CODE',
    );
    expect((await signIn(email)).statusCode).toBe(200);
  });

  it('expires codes one hour after they were sent', async () => {
    const { email, uid } = await makeUser();
    await requestReset(email);
    await sink.waitFor((m) => m.to.includes(email));
    const [row] = await t.ctx.db.select().from(oobCodes).where(eq(oobCodes.uid, uid));
    const ttl = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(ttl).toBe(3600_000);
  });

  it('writes the mail in the requested language', async () => {
    const { email: es } = await makeUser();
    const { email: en } = await makeUser();
    await requestReset(es, { locale: 'es-419' });
    const r = await t.app.inject({
      method: 'POST',
      url: SEND_OOB,
      headers: { 'x-firebase-locale': 'en' },
      payload: { requestType: 'PASSWORD_RESET', email: en },
    });
    expect(r.statusCode).toBe(200);
    const spanish = await sink.waitFor((m) => m.to.includes(es));
    expect(spanish.subject).toMatch(/^=\?UTF-8\?Q\?Restablece_tu_contrase=C3=B1a/);
    expect(spanish.text).toContain('Recibimos una solicitud para restablecer');
    expect((await sink.waitFor((m) => m.to.includes(en))).subject).toBe('Reset your Assistente password');
  });

  it('answers 200 for unknown emails and sends nothing', async () => {
    const ghost = uniqueEmail('ghost');
    await requestReset(ghost);
    await t.identity.drain();
    expect(sink.mails.some((m) => m.to.includes(ghost))).toBe(false);
  });

  it('limits mails per email silently', async () => {
    const { email } = await makeUser();
    for (let i = 0; i < DEFAULT_LIMITS.resetMailsPerEmail.max + 2; i++) await requestReset(email);
    await t.identity.drain();
    await sink.waitFor((m) => m.to.includes(email));
    expect(sink.mails.filter((m) => m.to.includes(email))).toHaveLength(
      DEFAULT_LIMITS.resetMailsPerEmail.max,
    );
  });

  it('limits mails per IP silently', async () => {
    const ip = nextIp();
    const emails: string[] = [];
    for (let i = 0; i < DEFAULT_LIMITS.resetMailsPerIp.max + 2; i++) {
      const { email } = await makeUser();
      emails.push(email);
      const res = await post(SEND_OOB, { requestType: 'PASSWORD_RESET', email }, ip);
      expect(res.statusCode).toBe(200);
    }
    await t.identity.drain();
    const sent = emails.filter((e) => sink.mails.some((m) => m.to.includes(e)));
    expect(sent).toHaveLength(DEFAULT_LIMITS.resetMailsPerIp.max);
  });

  it('refuses made-up codes', async () => {
    expect(errorOf(await post(RESET, { oobCode: 'x'.repeat(43) }))).toBe('INVALID_OOB_CODE');
  });
});

describe('password reset without SMTP_URL', () => {
  let t: IdentityTestApp;
  beforeAll(async () => {
    t = await buildIdentityTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const { post, makeUser } = helpers(() => t);

  it('writes an .eml into DATA_DIR/outbox and logs the link', async () => {
    const { email } = await makeUser();
    const res = await post(SEND_OOB, { requestType: 'PASSWORD_RESET', email, locale: 'en' });
    expect(res.statusCode).toBe(200);
    await t.identity.drain();
    const eml = latestOutboxMail(t, email);
    expect(eml).toMatch(/^Subject: Reset your Assistente password\r$/m);
    expect(eml).toMatch(/^Content-Type: multipart\/alternative/m);
    const code = await latestOutboxCode(t, email);
    const line = t.logs.find(
      (l) => l.level === 30 && typeof l.msg === 'string' && l.msg.includes('oobCode='),
    );
    expect(line?.msg).toContain(`http://localhost:3999/auth/reset-password?oobCode=${code}`);
    const file = readdirSync(path.join(t.dataDir, 'outbox'))[0] ?? '';
    expect(statSync(path.join(t.dataDir, 'outbox', file)).mode & 0o777).toBe(0o600);
  });
});

describe('signing keys', () => {
  it('persist across restarts in the same DATA_DIR', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-keys-'));
    try {
      const first = await buildIdentityTestApp({ dataDir });
      const account = await first.identity.createAccount({ email: uniqueEmail(), password: GOOD_PASSWORD });
      const pair = await first.identity.issueSession(account.uid, { kind: 'web', name: 'test' });
      const jwks1 = first.identity.jwks();
      await first.close();
      const second = await buildIdentityTestApp({ dataDir });
      try {
        expect(second.identity.jwks()).toEqual(jwks1);
        const jwks = (await second.app.inject({ method: 'GET', url: '/identity/jwks.json' })).json();
        const { payload } = await jwtVerify(pair.idToken, createLocalJWKSet(jwks), {
          audience: 'assistente',
        });
        expect(payload.sub).toBe(account.uid);
        expect(await second.identity.verifyIdToken(pair.idToken)).toMatchObject({ sub: account.uid });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('come from IDENTITY_PRIVATE_KEY (RS256 PEM) when set, and nothing is written', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const t = await buildIdentityTestApp({ env: { IDENTITY_PRIVATE_KEY: pem } });
    try {
      const account = await t.identity.createAccount({ email: uniqueEmail(), password: GOOD_PASSWORD });
      const pair = await t.identity.issueSession(account.uid, { kind: 'web', name: 'test' });
      expect(decodeProtectedHeader(pair.idToken).alg).toBe('RS256');
      const jwks = (await t.app.inject({ method: 'GET', url: '/identity/jwks.json' })).json();
      expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      await jwtVerify(pair.idToken, createLocalJWKSet(jwks), { audience: 'assistente' });
      expect(existsSync(path.join(t.dataDir, 'keys', 'identity.json'))).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('come from IDENTITY_PRIVATE_KEY (ES256 JWK) with its own kid', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'ops-2026' };
    const t = await buildIdentityTestApp({ env: { IDENTITY_PRIVATE_KEY: JSON.stringify(jwk) } });
    try {
      const account = await t.identity.createAccount({ email: uniqueEmail(), password: GOOD_PASSWORD });
      const pair = await t.identity.issueSession(account.uid, { kind: 'web', name: 'test' });
      expect(decodeProtectedHeader(pair.idToken)).toMatchObject({ alg: 'ES256', kid: 'ops-2026' });
      expect(t.identity.jwks().keys[0]).toMatchObject({ kid: 'ops-2026', x: jwk.x, y: jwk.y });
    } finally {
      await t.close();
    }
  });
});

describe('mounted in the whole app (app.ts)', () => {
  it('serves sign-in, refresh, keys and its own error shape next to the other modules', async () => {
    const t = await buildTestApp();
    try {
      const email = uniqueEmail('app');
      await t.ctx.identity.createAccount({ email, password: GOOD_PASSWORD });
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k',
        payload: { email, password: GOOD_PASSWORD, returnSecureToken: true },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);
      const refresh = await t.app.inject({
        method: 'POST',
        url: '/securetoken.googleapis.com/v1/token?key=k',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=refresh_token&refresh_token=${signIn.json().refreshToken}`,
      });
      expect(refresh.statusCode, refresh.body).toBe(200);
      const jwks = await t.app.inject({ method: 'GET', url: '/identity/jwks.json' });
      await jwtVerify(refresh.json().id_token, createLocalJWKSet(jwks.json()), { audience: 'assistente' });
      const bad = await t.app.inject({
        method: 'POST',
        url: SIGN_IN,
        headers: { 'content-type': 'application/json' },
        payload: '{oops',
      });
      expect(bad.statusCode).toBe(400);
      expect(IdentityErrorBodySchema.parse(bad.json()).error.message).toMatch(/^INVALID_ARGUMENT/);
    } finally {
      await t.close();
    }
  });
});
