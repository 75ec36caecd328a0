import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { identityAccounts, identitySessions, oobCodes } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { GOOD_PASSWORD, uniqueEmail } from '../../test/identity.ts';
import {
  latestOutboxCode,
  latestOutboxMail,
  nextIp,
  RESET,
  useIdentityApp,
} from '../../test/identity-http.ts';
import { DEFAULT_LIMITS } from './service.ts';
import { purgeStale } from './store.ts';

describe('identity over HTTP: brute force and the service API', () => {
  const { t, post, makeUser, signIn, signedIn, refresh, errorOf } = useIdentityApp();

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
      await t().identity.sendPasswordResetMail(email, {
        locale: 'en',
        kind: 'reset',
        linkBase: t().config.publicUrl,
      });
      // The code went to the outbox; read it back from there.
      const code = await latestOutboxCode(t(), email);
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
      await t().identity.createAccount({ email });
      await expect(t().identity.createAccount({ email: email.toUpperCase() })).rejects.toSatisfy(
        (e: unknown) => e instanceof AppError && e.code === 'CONFLICT',
      );
      expect((await t().identity.findAccountByEmail(email.toUpperCase()))?.email).toBe(email);
    });

    it('refuses a weak password with VALIDATION_FAILED and stores nothing', async () => {
      const email = uniqueEmail('weak');
      await expect(t().identity.createAccount({ email, password: 'qwerty123' })).rejects.toSatisfy(
        (e: unknown) => e instanceof AppError && e.code === 'VALIDATION_FAILED',
      );
      expect(await t().identity.findAccountByEmail(email)).toBeUndefined();
    });

    it('issues, lists and revokes sessions; setPassword and deleteAccount end them all', async () => {
      const { email, uid } = await makeUser();
      const editor = await t().identity.issueSession(uid, { kind: 'editor', name: 'VS Code' });
      const web = await signedIn(email);
      const list = await t().identity.listSessions(uid);
      expect(list.map((s) => s.kind).sort()).toEqual(['editor', 'web']);
      expect(list.find((s) => s.kind === 'editor')?.name).toBe('VS Code');
      expect(list.find((s) => s.kind === 'web')?.ip).toMatch(/^10\./);

      await t().identity.revokeSession(editor.sessionId, 'user_signed_out');
      expect(await t().identity.isSessionActive(editor.sessionId)).toBe(false);
      expect((await t().identity.listSessions(uid)).map((s) => s.kind)).toEqual(['web']);

      const again = await t().identity.issueSession(uid, { kind: 'editor', name: 'VS Code' });
      await t().identity.revokeAllSessions(uid, 'sign_out_everywhere', { except: again.sessionId });
      expect(await t().identity.isSessionActive(again.sessionId)).toBe(true);
      expect(await t().identity.isSessionActive(decodeJwt(web.idToken).sid as string)).toBe(false);

      await t().identity.setPassword(uid, 'yet another passphrase');
      expect(await t().identity.isSessionActive(again.sessionId)).toBe(false);
      expect((await signIn(email, 'yet another passphrase')).statusCode).toBe(200);

      const last = await t().identity.issueSession(uid, { kind: 'web', name: 'x' });
      await t().identity.deleteAccount(uid);
      expect(await t().identity.isSessionActive(last.sessionId)).toBe(false);
      expect(await t().identity.findAccount(uid)).toBeUndefined();
    });

    it('finds the session of a current refresh token without rotating it', async () => {
      const { email, uid } = await makeUser();
      const a = await signedIn(email);
      const sid = decodeJwt(a.idToken).sid as string;
      expect(await t().identity.findRefreshTokenSession(a.refreshToken)).toEqual({ sessionId: sid, uid });
      expect(await t().identity.findRefreshTokenSession(a.refreshToken)).toEqual({ sessionId: sid, uid });
      const next = (await refresh(a.refreshToken)).json();
      expect(await t().identity.findRefreshTokenSession(a.refreshToken)).toBeUndefined();
      expect(await t().identity.findRefreshTokenSession(next.refresh_token)).toEqual({ sessionId: sid, uid });
      await t().identity.revokeSession(sid, 'test');
      expect(await t().identity.findRefreshTokenSession(next.refresh_token)).toBeUndefined();
      expect(await t().identity.findRefreshTokenSession('nope')).toBeUndefined();
    });

    it('purges long-revoked sessions and old codes, and keeps the rest', async () => {
      const { email, uid } = await makeUser();
      const old = await t().identity.issueSession(uid, { kind: 'web', name: 'old' });
      const live = await signedIn(email);
      await t().identity.sendPasswordResetMail(email, {
        locale: 'en',
        kind: 'reset',
        linkBase: t().config.publicUrl,
      });
      const longAgo = new Date(Date.now() - 40 * 86_400_000);
      await t()
        .ctx.db.update(identitySessions)
        .set({ revokedAt: longAgo })
        .where(eq(identitySessions.id, old.sessionId));
      await t().ctx.db.update(oobCodes).set({ expiresAt: longAgo }).where(eq(oobCodes.uid, uid));
      const now = Date.now();
      await purgeStale(t().ctx.db, {
        codesBefore: new Date(now - 86_400_000),
        revokedBefore: new Date(now - 30 * 86_400_000),
        idleBefore: new Date(now - 60 * 86_400_000),
      });
      const sessions = await t().ctx.db.select().from(identitySessions).where(eq(identitySessions.uid, uid));
      expect(sessions.map((s) => s.id)).toEqual([decodeJwt(live.idToken).sid]);
      expect(await t().ctx.db.select().from(oobCodes).where(eq(oobCodes.uid, uid))).toEqual([]);
      expect((await refresh(live.refreshToken)).statusCode).toBe(200);
    });

    it('makes Firebase-like uids', async () => {
      const { uid } = await makeUser();
      expect(uid).toMatch(/^[0-9A-Za-z]{28}$/);
    });

    it('writes invitations with their own wording and a 72 hour link', async () => {
      const email = uniqueEmail('invitee');
      const { uid } = await t().identity.createAccount({ email, displayName: 'Bia' });
      await t().identity.sendPasswordResetMail(email, {
        locale: 'pt-BR',
        kind: 'invite',
        linkBase: t().config.publicUrl,
      });
      const eml = latestOutboxMail(t(), email);
      expect(eml).toContain('convidado');
      const [row] = await t().ctx.db.select().from(oobCodes).where(eq(oobCodes.uid, uid));
      expect(row?.requestType).toBe('INVITE');
      expect((row?.expiresAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(71 * 3600_000);
      const code = await latestOutboxCode(t(), email);
      expect((await post(RESET, { oobCode: code, newPassword: 'my first passphrase' })).statusCode).toBe(200);
      const [account] = await t().ctx.db.select().from(identityAccounts).where(eq(identityAccounts.uid, uid));
      expect(account?.emailVerified).toBe(true);
    });
  });
});
