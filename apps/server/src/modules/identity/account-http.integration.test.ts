import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { PasswordPolicySchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { identitySessions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { GOOD_PASSWORD } from '../../test/identity.ts';
import { LOOKUP, RESET, SEND_OOB, SIGN_IN, UPDATE, useIdentityApp } from '../../test/identity-http.ts';

describe('identity over HTTP: accounts, keys and bad input', () => {
  const { t, post, makeUser, signIn, signedIn, refresh, errorOf, sessionCount } = useIdentityApp();

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
      expect(await t().identity.isSessionActive(decodeJwt(b.idToken).sid as string)).toBe(false);
      expect((await refresh(body.refreshToken)).statusCode).toBe(200);
      expect(errorOf(await signIn(email, GOOD_PASSWORD))).toBe('INVALID_LOGIN_CREDENTIALS');
      expect((await signIn(email, 'a brand new passphrase')).statusCode).toBe(200);
    });

    it('asks for a recent sign-in before changing the password', async () => {
      const { email } = await makeUser();
      const a = await signedIn(email);
      const sid = decodeJwt(a.idToken).sid as string;
      await t()
        .ctx.db.update(identitySessions)
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
      await t().identity.deleteAccount(uid);
      expect(errorOf(await post(LOOKUP, { idToken: a.idToken }))).toBe('USER_NOT_FOUND');
      expect(errorOf(await refresh(a.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
      expect(await t().identity.isSessionActive(decodeJwt(a.idToken).sid as string)).toBe(false);
    });
  });

  describe('password policy and keys', () => {
    it('publishes the password policy', async () => {
      const res = await t().app.inject({
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
      expect((await t().app.inject({ method: 'GET', url: '/identity/v2/passwordPolicy' })).json()).toEqual(
        policy,
      );
    });

    it('verifies a minted token against the published JWKS and issuer metadata', async () => {
      const { email, uid } = await makeUser();
      const a = await signedIn(email);
      const jwks = (await t().app.inject({ method: 'GET', url: '/identity/jwks.json' })).json();
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0].d).toBeUndefined();
      const meta = (
        await t().app.inject({ method: 'GET', url: '/identity/.well-known/openid-configuration' })
      ).json();
      expect(meta.issuer).toBe('http://localhost:3999/identity');
      expect(meta.jwks_uri).toBe('http://localhost:3999/identity/jwks.json');
      const { payload, protectedHeader } = await jwtVerify(a.idToken, createLocalJWKSet(jwks), {
        issuer: meta.issuer,
        audience: 'assistente',
      });
      expect(payload.sub).toBe(uid);
      expect(protectedHeader.kid).toBe(jwks.keys[0].kid);
      expect((await t().identity.verifyIdToken(a.idToken)).sub).toBe(uid);
    });

    it('keeps the generated key in DATA_DIR with mode 0600', () => {
      const file = path.join(t().dataDir, 'keys', 'identity.json');
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
        await expect(t().identity.verifyIdToken(token)).rejects.toSatisfy(
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
        t().app.inject({ method: 'POST', url: SIGN_IN, payload, headers: { 'content-type': contentType } });
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
      const res = await t().app.inject({
        method: 'OPTIONS',
        url: '/identitytoolkit.googleapis.com/v1/accounts:lookup',
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-headers'])).toContain('x-firebase-locale');
    });
  });
});
