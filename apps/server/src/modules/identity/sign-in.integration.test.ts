import { RefreshTokenResponseSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { Channels } from '../../context.ts';
import { identitySessions, refreshTokens } from '../../db/schema/index.ts';
import { GOOD_PASSWORD, uniqueEmail } from '../../test/identity.ts';
import { LOOKUP, REVOKE, TOKEN, useIdentityApp } from '../../test/identity-http.ts';
import { hashSecret } from './crypto.ts';
import { REUSE_GRACE_MS } from './service.ts';

describe('identity over HTTP: sign-in and tokens', () => {
  const { t, post, makeUser, signIn, signedIn, refresh, errorOf } = useIdentityApp();

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
      expect(await t().identity.isSessionActive(claims.sid as string)).toBe(true);
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
      await t().identity.createAccount({ email });
      expect(errorOf(await signIn(email, GOOD_PASSWORD))).toBe('INVALID_LOGIN_CREDENTIALS');
    });

    it('answers USER_DISABLED only once the password is right, and disabling ends every session', async () => {
      const { email, uid } = await makeUser();
      const tokens = await signedIn(email);
      await t().identity.setDisabled(uid, true);
      expect(errorOf(await signIn(email, 'wrong password here'))).toBe('INVALID_LOGIN_CREDENTIALS');
      expect(errorOf(await signIn(email))).toBe('USER_DISABLED');
      expect(errorOf(await refresh(tokens.refreshToken))).toBe('USER_DISABLED');
      expect(await t().identity.isSessionActive(decodeJwt(tokens.idToken).sid as string)).toBe(false);
      await t().identity.setDisabled(uid, false);
      expect((await signIn(email)).statusCode).toBe(200);
      // Re-enabling does not bring old sessions back.
      expect(errorOf(await refresh(tokens.refreshToken))).toBe('TOKEN_EXPIRED');
    });
  });

  describe('token (refresh)', () => {
    it('rotates the refresh token on every use, with form and JSON bodies', async () => {
      const { email, uid } = await makeUser();
      const first = await signedIn(email);
      const form = await t().app.inject({
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
      expect(await t().identity.isSessionActive(sid)).toBe(false);
      const [row] = await t().ctx.db.select().from(identitySessions).where(eq(identitySessions.id, sid));
      expect(row?.revokedReason).toBe('refresh_token_reuse');
    });

    it('revokes the whole session when a rotated token comes back after the grace period', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      const rotated = (await refresh(first.refreshToken)).json();
      await t()
        .ctx.db.update(refreshTokens)
        .set({ rotatedAt: new Date(Date.now() - REUSE_GRACE_MS - 1000) })
        .where(eq(refreshTokens.tokenHash, hashSecret(first.refreshToken)));
      expect(errorOf(await refresh(first.refreshToken))).toBe('TOKEN_EXPIRED');
      expect(errorOf(await refresh(rotated.refresh_token))).toBe('TOKEN_EXPIRED');
      expect(await t().identity.isSessionActive(sid)).toBe(false);
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
      expect(await t().identity.isSessionActive(sid)).toBe(true);
      // A retired successor is a tripwire: whoever holds it is not this page.
      expect(errorOf(await refresh(lost.refresh_token))).toBe('TOKEN_EXPIRED');
      expect(await t().identity.isSessionActive(sid)).toBe(false);
      const [row] = await t().ctx.db.select().from(identitySessions).where(eq(identitySessions.id, sid));
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
      expect(await t().identity.isSessionActive(sid)).toBe(false);
    });

    it('updates last_used_at', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      const past = new Date(Date.now() - 3600_000);
      await t().ctx.db.update(identitySessions).set({ lastUsedAt: past }).where(eq(identitySessions.id, sid));
      expect((await refresh(first.refreshToken)).statusCode).toBe(200);
      const [row] = await t().ctx.db.select().from(identitySessions).where(eq(identitySessions.id, sid));
      expect(row?.lastUsedAt.getTime()).toBeGreaterThan(past.getTime() + 1000);
    });

    it('ends a session idle for more than 30 days', async () => {
      const { email } = await makeUser();
      const first = await signedIn(email);
      const sid = decodeJwt(first.idToken).sid as string;
      await t()
        .ctx.db.update(identitySessions)
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
      expect(await t().identity.isSessionActive(sid)).toBe(true);
      const seen: unknown[] = [];
      const off = t().ctx.bus.subscribe(Channels.authInvalidate, (m) => seen.push(m));
      const res = await post(REVOKE, { token: tokens.refreshToken });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({});
      expect(await t().identity.isSessionActive(sid)).toBe(false);
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
      expect(await t().identity.isSessionActive(sid)).toBe(true);
      // Behind the service's back (as another replica would): the cache still says active…
      await t()
        .ctx.db.update(identitySessions)
        .set({ revokedAt: new Date() })
        .where(eq(identitySessions.id, sid));
      expect(await t().identity.isSessionActive(sid)).toBe(true);
      // …until the invalidation arrives on the bus.
      await t().ctx.bus.publish(Channels.authInvalidate, { uid });
      await expect.poll(() => t().identity.isSessionActive(sid)).toBe(false);
    });

    it('answers false for unknown and malformed session ids', async () => {
      expect(await t().identity.isSessionActive('nope')).toBe(false);
      expect(await t().identity.isSessionActive('')).toBe(false);
      expect(await t().identity.isSessionActive('x'.repeat(500))).toBe(false);
    });
  });
});
