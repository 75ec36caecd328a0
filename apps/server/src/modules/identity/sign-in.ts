import { isEmailAddress } from '@assistente/contracts';
import { type ClientInfo, type IdentityCore, MAX_SECRET_LENGTH, type SignedIn } from './core.ts';
import { hashSecret, newSecret } from './crypto.ts';
import { identityError } from './errors.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { openSession, revokeSession } from './sessions.ts';
import * as store from './store.ts';
import { emailKey, ipKey } from './throttle.ts';
import type { IdpHandoffInput, SessionMeta } from './types.ts';
import { describeUserAgent } from './user-agent.ts';

/** Signing in (docs/ARCHITECTURE.md#identity): with a password, or with a single sign-on's one-time code. */

/** How long the login page has to exchange a single sign-on's one-time code. */
const IDP_HANDOFF_TTL_MS = 60_000;

export interface SignedInWithIdp extends SignedIn {
  providerId: string;
  subject: string;
  isNewUser: boolean;
}

function webSession(client: ClientInfo, userAgent = client.userAgent): SessionMeta {
  return {
    kind: 'web',
    name: describeUserAgent(userAgent),
    ip: client.ip,
    ...(userAgent ? { userAgent } : {}),
  };
}

/** accounts:signInWithPassword. Unknown email, wrong password and locked account look the same. */
export async function signInWithPassword(
  core: IdentityCore,
  rawEmail: string,
  password: string,
  client: ClientInfo,
): Promise<SignedIn> {
  const email = rawEmail.trim();
  if (!email) throw identityError('MISSING_EMAIL');
  if (!isEmailAddress(email)) throw identityError('INVALID_EMAIL');
  if (!password) throw identityError('MISSING_PASSWORD');
  const ip = ipKey(client.ip);
  const who = emailKey(email);
  if (await core.ipLockout.isLocked(ip)) throw identityError('TOO_MANY_ATTEMPTS_TRY_LATER');
  const [locked, account] = await Promise.all([
    core.accountLockout.isLocked(who),
    store.findAccountByEmail(core.deps.db, email),
  ]);
  // Always one argon2 verification, whatever is known about the account: same work, same time.
  const matches = await verifyPassword(account?.passwordHash ?? core.dummyHash, password);
  if (locked || !account?.passwordHash || !matches) {
    const [ipLock, accountLock] = await Promise.all([
      core.ipLockout.fail(ip),
      locked ? 0 : core.accountLockout.fail(who),
    ]);
    if (ipLock || accountLock) {
      // The account is named by its counter id only: logs must not confirm which emails exist.
      core.deps.log.warn(
        { ip: client.ip, account: who, lockMs: ipLock ? ipLock : accountLock, by: ipLock ? 'ip' : 'account' },
        'identity: sign-in locked after repeated failures',
      );
    }
    throw identityError('INVALID_LOGIN_CREDENTIALS');
  }
  // Only now, with the password proven, may the answer say more about the account.
  if (account.disabled) throw identityError('USER_DISABLED');
  await core.accountLockout.reset(who);
  const now = new Date();
  const rehash = needsRehash(account.passwordHash) ? await hashPassword(password) : undefined;
  await store.updateAccount(core.deps.db, account.uid, {
    lastLoginAt: now,
    ...(rehash ? { passwordHash: rehash } : {}),
  });
  const fresh = { ...account, lastLoginAt: now };
  return { account: fresh, tokens: await openSession(core, fresh, webSession(client), now) };
}

/** After a single sign-on the SSO module verified: the one-time code the login page exchanges. */
export async function createIdpHandoff(core: IdentityCore, input: IdpHandoffInput): Promise<string> {
  const code = newSecret();
  await store.insertIdpHandoff(core.deps.db, {
    codeHash: hashSecret(code),
    uid: input.uid,
    providerId: input.providerId,
    subject: input.subject.slice(0, 255),
    isNewUser: input.isNewUser,
    ip: input.ip?.slice(0, 64) ?? null,
    userAgent: input.userAgent?.slice(0, 512) ?? null,
    expiresAt: new Date(Date.now() + IDP_HANDOFF_TTL_MS),
  });
  return code;
}

/**
 * accounts:signInWithIdp with `postBody` `code=…&providerId=…`: the one-time code a single sign-on
 * callback handed to the login page becomes an ordinary web session. A code seen a second time
 * leaked somewhere, so the session it opened ends too.
 */
export async function signInWithIdp(
  core: IdentityCore,
  postBody: string,
  client: ClientInfo,
): Promise<SignedInWithIdp> {
  const params = new URLSearchParams(postBody);
  const code = params.get('code') ?? '';
  const providerId = params.get('providerId');
  if (!code || code.length > MAX_SECRET_LENGTH) throw identityError('INVALID_IDP_RESPONSE');
  const codeHash = hashSecret(code);
  const now = new Date();
  const handoff = await store.consumeIdpHandoff(core.deps.db, codeHash, now);
  if (!handoff) {
    const seen = await store.findIdpHandoff(core.deps.db, codeHash);
    if (seen?.sessionId) {
      core.deps.log.warn({ uid: seen.uid }, 'identity: a used single sign-on code was presented again');
      await revokeSession(core, seen.sessionId, 'sso_code_reuse');
    }
    throw identityError('INVALID_IDP_RESPONSE');
  }
  if (providerId && providerId !== handoff.providerId) throw identityError('INVALID_IDP_RESPONSE');
  const account = await store.findAccountByUid(core.deps.db, handoff.uid);
  if (!account) throw identityError('USER_NOT_FOUND');
  if (account.disabled) throw identityError('USER_DISABLED');
  // The provider verified the address, so the account's is now verified too.
  await store.updateAccount(core.deps.db, account.uid, { lastLoginAt: now, emailVerified: true });
  const meta = webSession(client, client.userAgent ?? handoff.userAgent ?? undefined);
  const fresh = { ...account, lastLoginAt: now, emailVerified: true };
  const tokens = await openSession(core, fresh, meta, now);
  await store.setIdpHandoffSession(core.deps.db, codeHash, tokens.sessionId);
  return {
    account: fresh,
    tokens,
    providerId: handoff.providerId,
    subject: handoff.subject,
    isNewUser: handoff.isNewUser,
  };
}
