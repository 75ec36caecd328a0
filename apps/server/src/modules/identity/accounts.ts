import { isEmailAddress } from '@assistente/contracts';
import { type IdentityCore, invalidate, type LookedUp, MINUTE, toAccount } from './core.ts';
import { hashSecret, newSecret, newUid } from './crypto.ts';
import {
  accountEmailTaken,
  accountNotFound,
  displayNameTooLong,
  identityError,
  invalidEmail,
  weakPassword,
} from './errors.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { tokensFor } from './sessions.ts';
import type { AccountRow } from './store.ts';
import * as store from './store.ts';
import { emailKey } from './throttle.ts';
import type { IdentityAccount, TokenPair } from './types.ts';
import { MAX_DISPLAY_NAME_LENGTH } from './validation.ts';

/** Accounts of the built-in identity provider (docs/ARCHITECTURE.md#identity): create, find, change, delete. */

/** Changing the password through accounts:update needs a sign-in this recent (as Firebase). */
const RECENT_AUTH_MS = 5 * MINUTE;

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function assertPasswordOk(password: string, email: string): void {
  const problem = passwordProblem(password, { email });
  if (problem) throw weakPassword(problem);
}

export async function createAccount(
  core: IdentityCore,
  input: { email: string; password?: string; displayName?: string; emailVerified?: boolean },
): Promise<IdentityAccount> {
  const email = input.email.trim();
  if (!isEmailAddress(email)) throw invalidEmail();
  const displayName = (input.displayName ?? '').trim();
  if (displayName.length > MAX_DISPLAY_NAME_LENGTH) {
    throw displayNameTooLong(MAX_DISPLAY_NAME_LENGTH);
  }
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    assertPasswordOk(input.password, email);
    passwordHash = await hashPassword(input.password);
  }
  try {
    const row = await store.insertAccount(core.deps.db, {
      uid: newUid(),
      email,
      displayName,
      emailVerified: input.emailVerified ?? false,
      passwordHash,
      passwordUpdatedAt: passwordHash ? new Date() : null,
    });
    return toAccount(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw accountEmailTaken();
    throw err;
  }
}

export async function findAccountByEmail(
  core: IdentityCore,
  email: string,
): Promise<IdentityAccount | undefined> {
  const e = email.trim();
  if (!e || e.length > 254) return undefined;
  const row = await store.findAccountByEmail(core.deps.db, e);
  return row && toAccount(row);
}

export async function awaitingPassword(core: IdentityCore, emails: readonly string[]): Promise<Set<string>> {
  return new Set(await store.passwordlessEmails(core.deps.db, emails));
}

export async function findAccount(core: IdentityCore, uid: string): Promise<IdentityAccount | undefined> {
  if (!uid || uid.length > 128) return undefined;
  const row = await store.findAccountByUid(core.deps.db, uid);
  return row && toAccount(row);
}

export async function setDisabled(core: IdentityCore, uid: string, disabled: boolean): Promise<void> {
  const now = new Date();
  const found = await core.deps.db.transaction(async (tx) => {
    if (!(await store.updateAccount(tx, uid, { disabled }))) return false;
    if (disabled) await store.revokeSessionsOf(tx, uid, 'account_disabled', now);
    return true;
  });
  if (!found) throw accountNotFound();
  await invalidate(core, uid);
}

export async function deleteAccount(core: IdentityCore, uid: string): Promise<void> {
  // Sessions, tokens and codes go with it (ON DELETE CASCADE).
  await store.deleteAccount(core.deps.db, uid);
  await invalidate(core, uid);
}

export async function setPassword(core: IdentityCore, uid: string, password: string): Promise<void> {
  const account = await store.findAccountByUid(core.deps.db, uid);
  if (!account) throw accountNotFound();
  assertPasswordOk(password, account.email);
  const passwordHash = await hashPassword(password);
  const now = new Date();
  await core.deps.db.transaction(async (tx) => {
    await store.updateAccount(tx, uid, { passwordHash, passwordUpdatedAt: now });
    await store.voidOobCodesOf(tx, uid, now);
    await store.revokeSessionsOf(tx, uid, 'password_changed', now);
  });
  await invalidate(core, uid);
  await core.accountLockout.reset(emailKey(account.email));
}

/** accounts:lookup and accounts:update: an id token that is valid, of a live session, of an existing enabled account. */
export async function authenticate(core: IdentityCore, idToken: string): Promise<LookedUp> {
  if (!idToken) throw identityError('INVALID_ID_TOKEN');
  const check = await core.signer.checkIdToken(idToken);
  if (!check.ok || !check.claims.sid) throw identityError('INVALID_ID_TOKEN');
  const [account, session] = await Promise.all([
    store.findAccountByUid(core.deps.db, check.claims.sub),
    store.findSession(core.deps.db, check.claims.sid),
  ]);
  if (!account) throw identityError('USER_NOT_FOUND');
  if (!session || session.uid !== account.uid) throw identityError('INVALID_ID_TOKEN');
  if (account.disabled) throw identityError('USER_DISABLED');
  if (session.revokedAt) throw identityError('TOKEN_EXPIRED');
  return { account, session };
}

/**
 * accounts:update. A new password needs a recent sign-in, ends every other session and rotates
 * the caller's tokens (answered back). A display name alone changes no session.
 */
export async function updateAccount(
  core: IdentityCore,
  idToken: string,
  changes: { password?: string; displayName?: string },
): Promise<{ account: AccountRow; tokens?: TokenPair }> {
  const { account, session } = await authenticate(core, idToken);
  const displayName = changes.displayName?.trim();
  if (displayName !== undefined && displayName.length > MAX_DISPLAY_NAME_LENGTH) {
    throw identityError(
      'INVALID_ARGUMENT',
      `Display name must have at most ${MAX_DISPLAY_NAME_LENGTH} characters`,
    );
  }
  const now = new Date();
  if (changes.password === undefined) {
    if (displayName === undefined) return { account };
    await store.updateAccount(core.deps.db, account.uid, { displayName });
    return { account: { ...account, displayName } };
  }
  if (now.getTime() - session.authTime.getTime() > RECENT_AUTH_MS) {
    throw identityError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN');
  }
  const problem = passwordProblem(changes.password, { email: account.email });
  if (problem) throw identityError('PASSWORD_DOES_NOT_MEET_REQUIREMENTS', problem);
  const passwordHash = await hashPassword(changes.password);
  const next = newSecret();
  await core.deps.db.transaction(async (tx) => {
    await store.updateAccount(tx, account.uid, {
      passwordHash,
      passwordUpdatedAt: now,
      ...(displayName !== undefined ? { displayName } : {}),
    });
    await store.voidOobCodesOf(tx, account.uid, now);
    await store.revokeSessionsOf(tx, account.uid, 'password_changed', now, session.id);
    await store.rotateAllOfSession(tx, session.id, now);
    await store.insertRefreshToken(tx, hashSecret(next), session.id, now);
    await store.touchSession(tx, session.id, now);
  });
  core.deps.log.info({ uid: account.uid }, 'identity: password changed; every other session ended');
  await invalidate(core, account.uid);
  const updated: AccountRow = {
    ...account,
    passwordHash,
    passwordUpdatedAt: now,
    ...(displayName !== undefined ? { displayName } : {}),
  };
  return { account: updated, tokens: await tokensFor(core, updated, session, next) };
}
