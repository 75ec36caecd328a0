import { isEmailAddress, type Locale } from '@assistente/contracts';
import {
  type ClientInfo,
  HOUR,
  type IdentityCore,
  inBackground,
  invalidate,
  MAX_SECRET_LENGTH,
} from './core.ts';
import { hashSecret, newSecret } from './crypto.ts';
import { passwordMail } from './emails.ts';
import { identityError } from './errors.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import * as store from './store.ts';
import { emailKey, ipKey } from './throttle.ts';

/** Password reset and invitation links (docs/ARCHITECTURE.md#identity): mailing a code, checking it, using it. */

const RESET_CODE_TTL_MS = HOUR;
/** An invitation is read later than a reset link the reader just asked for. */
const INVITE_CODE_TTL_MS = 72 * HOUR;

export async function sendPasswordResetMail(
  core: IdentityCore,
  email: string,
  opts: { locale: Locale; kind: 'reset' | 'invite'; linkBase: string },
): Promise<void> {
  const e = email.trim();
  if (!isEmailAddress(e)) return;
  const account = await store.findAccountByEmail(core.deps.db, e);
  if (!account || account.disabled) return;
  const code = newSecret();
  const now = new Date();
  const ttl = opts.kind === 'invite' ? INVITE_CODE_TTL_MS : RESET_CODE_TTL_MS;
  await store.insertOobCode(core.deps.db, {
    codeHash: hashSecret(code),
    uid: account.uid,
    requestType: opts.kind === 'invite' ? 'INVITE' : 'PASSWORD_RESET',
    expiresAt: new Date(now.getTime() + ttl),
    createdAt: now,
  });
  // `invite=1` only words the page as a welcome (and signs the newcomer in); the code decides the rest.
  const link = `${opts.linkBase}/auth/reset-password?oobCode=${encodeURIComponent(code)}${opts.kind === 'invite' ? '&invite=1' : ''}`;
  await core.deps.mailer.send(
    passwordMail({ kind: opts.kind, locale: opts.locale, to: account.email, link, validHours: ttl / HOUR }),
  );
}

/**
 * accounts:sendOobCode (PASSWORD_RESET). The answer never depends on the account: limits are
 * silent and the mail goes out after the response, so its time says nothing either.
 */
export async function requestPasswordReset(
  core: IdentityCore,
  rawEmail: string,
  locale: Locale,
  client: ClientInfo,
): Promise<void> {
  const email = rawEmail.trim();
  if (!email) throw identityError('MISSING_EMAIL');
  if (!isEmailAddress(email)) throw identityError('INVALID_EMAIL');
  const [ipOk, emailOk] = await Promise.all([
    core.resetPerIp.take(ipKey(client.ip)),
    core.resetPerEmail.take(emailKey(email)),
  ]);
  if (!ipOk || !emailOk) {
    core.deps.log.info(
      { ip: client.ip, limit: ipOk ? 'email' : 'ip' },
      'identity: password reset mail not sent (rate limit)',
    );
    return;
  }
  inBackground(
    core,
    sendPasswordResetMail(core, email, {
      locale,
      kind: 'reset',
      linkBase: client.linkBase ?? core.deps.config.publicUrl,
    }),
    'password reset mail',
  );
}

async function usableCode(core: IdentityCore, oobCode: string, client: ClientInfo) {
  if (!oobCode) throw identityError('MISSING_OOB_CODE');
  const ip = ipKey(client.ip);
  if (await core.ipLockout.isLocked(ip)) throw identityError('TOO_MANY_ATTEMPTS_TRY_LATER');
  const row =
    oobCode.length <= MAX_SECRET_LENGTH
      ? await store.findOobCode(core.deps.db, hashSecret(oobCode))
      : undefined;
  if (!row || row.code.usedAt) {
    if (await core.ipLockout.fail(ip)) {
      core.deps.log.warn({ ip: client.ip }, 'identity: IP locked after repeated invalid reset codes');
    }
    throw identityError('INVALID_OOB_CODE');
  }
  if (row.code.expiresAt.getTime() <= Date.now()) throw identityError('EXPIRED_OOB_CODE');
  if (row.account.disabled) throw identityError('USER_DISABLED');
  return row;
}

/** accounts:resetPassword with only `oobCode`: is the link still good, and for whom. */
export async function checkResetCode(
  core: IdentityCore,
  oobCode: string,
  client: ClientInfo,
): Promise<{ email: string }> {
  const row = await usableCode(core, oobCode, client);
  return { email: row.account.email };
}

/** accounts:resetPassword with `newPassword`: sets it, uses the code, ends every session. */
export async function resetPassword(
  core: IdentityCore,
  oobCode: string,
  newPassword: string,
  client: ClientInfo,
): Promise<{ email: string }> {
  const row = await usableCode(core, oobCode, client);
  const problem = passwordProblem(newPassword, { email: row.account.email });
  if (problem) throw identityError('PASSWORD_DOES_NOT_MEET_REQUIREMENTS', problem);
  const passwordHash = await hashPassword(newPassword);
  const now = new Date();
  const uid = await core.deps.db.transaction(async (tx) => {
    const used = await store.consumeOobCode(tx, hashSecret(oobCode), now);
    if (!used) return undefined;
    // Following the link proves the mailbox, so the address is verified too.
    await store.updateAccount(tx, used, { passwordHash, passwordUpdatedAt: now, emailVerified: true });
    await store.voidOobCodesOf(tx, used, now);
    await store.revokeSessionsOf(tx, used, 'password_reset', now);
    return used;
  });
  if (!uid) throw identityError('INVALID_OOB_CODE');
  core.deps.log.info({ uid, ip: client.ip }, 'identity: password reset; every session ended');
  await invalidate(core, uid);
  await core.accountLockout.reset(emailKey(row.account.email));
  return { email: row.account.email };
}
