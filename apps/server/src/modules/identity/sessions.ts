import {
  DAY,
  type IdentityCore,
  invalidate,
  MAX_SECRET_LENGTH,
  SESSION_IDLE_MS,
  SESSION_MAX_AGE_MS,
  type SignedIn,
  sessionExpired,
  toSessionInfo,
} from './core.ts';
import { hashSecret, newSecret, newSessionId } from './crypto.ts';
import { accountDisabled, accountNotFound, identityError } from './errors.ts';
import type { AccountRow, SessionRow } from './store.ts';
import * as store from './store.ts';
import { ID_TOKEN_TTL_SECONDS } from './tokens.ts';
import type { SessionInfo, SessionMeta, TokenPair, VisitorSubject } from './types.ts';
import { MAX_DISPLAY_NAME_LENGTH } from './validation.ts';

/**
 * Sessions as refresh-token families (docs/ARCHITECTURE.md#identity): opening one, rotating its
 * refresh token, telling whether it is live, ending it.
 */

/** How long a rotated refresh token may stand in for an answer its client never received (lostAnswer). */
export const REUSE_GRACE_MS = 30_000;

const validSessionId = (sessionId: string) =>
  typeof sessionId === 'string' && sessionId.length > 0 && sessionId.length <= 128;

export async function issueSession(core: IdentityCore, uid: string, meta: SessionMeta): Promise<TokenPair> {
  const account = await store.findAccountByUid(core.deps.db, uid);
  if (!account) throw accountNotFound();
  if (account.disabled) throw accountDisabled();
  return openSession(core, account, meta, new Date());
}

export async function openSession(
  core: IdentityCore,
  account: AccountRow,
  meta: SessionMeta,
  now: Date,
): Promise<TokenPair> {
  const refreshToken = newSecret();
  const session = await core.deps.db.transaction(async (tx) => {
    const s = await store.insertSession(tx, {
      id: newSessionId(),
      uid: account.uid,
      kind: meta.kind,
      name: meta.name.slice(0, 200),
      ip: meta.ip?.slice(0, 64) ?? null,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
      authTime: now,
      lastUsedAt: now,
    });
    await store.insertRefreshToken(tx, hashSecret(refreshToken), s.id, now);
    return s;
  });
  return tokensFor(core, account, session, refreshToken);
}

export async function tokensFor(
  core: IdentityCore,
  account: AccountRow,
  session: SessionRow,
  refreshToken: string,
): Promise<TokenPair> {
  const subject = {
    uid: account.uid,
    displayName: account.displayName,
    sessionId: session.id,
    authTime: session.authTime,
  };
  // A visitor's session keeps minting visitor tokens, whoever refreshes it.
  const idToken =
    session.kind === 'embedded'
      ? core.visitorSigner.signVisitorToken(subject)
      : core.signer.signIdToken({ ...subject, email: account.email, emailVerified: account.emailVerified });
  return {
    idToken,
    refreshToken,
    expiresIn: String(ID_TOKEN_TTL_SECONDS),
    sessionId: session.id,
    uid: account.uid,
  };
}

/** Stores a session the embedded module minted (embedded/visitor-sessions.ts); whether it is live afterwards. */
export async function storeVisitorSession(
  core: IdentityCore,
  visitor: VisitorSubject,
  session: { sessionId: string; authTime: Date },
  meta: Omit<SessionMeta, 'kind'>,
): Promise<boolean> {
  const now = new Date();
  // Passwordless: nobody can sign in as a visitor, only be issued a session by the embed.
  const account = await store.upsertPasswordlessAccount(core.deps.db, {
    uid: visitor.uid,
    email: visitor.email,
    displayName: visitor.displayName.trim().slice(0, MAX_DISPLAY_NAME_LENGTH),
  });
  if (account.disabled) return false;
  await store.insertSessionOnce(
    core.deps.db,
    {
      id: session.sessionId,
      uid: visitor.uid,
      kind: 'embedded',
      name: meta.name.slice(0, 200),
      ip: meta.ip?.slice(0, 64) ?? null,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
      authTime: session.authTime,
      lastUsedAt: now,
    },
    // A minted session's id is its first refresh token's hash (embedded/visitor-sessions.ts).
    session.sessionId,
  );
  // Stored now (or by a request that raced this one, or long ago and since ended): ask afresh.
  core.cache.forget(session.sessionId);
  return core.cache.get(session.sessionId);
}

export async function sessionStatus(
  core: IdentityCore,
  sessionId: string,
): Promise<'active' | 'ended' | 'absent'> {
  if (!validSessionId(sessionId)) return 'ended';
  const state = await core.cache.state(sessionId);
  return state.active ? 'active' : state.absent ? 'absent' : 'ended';
}

export function peekSessionActive(core: IdentityCore, sessionId: string): boolean | undefined {
  return validSessionId(sessionId) ? core.cache.peek(sessionId) : undefined;
}

export function isSessionActive(core: IdentityCore, sessionId: string): Promise<boolean> {
  return validSessionId(sessionId) ? core.cache.get(sessionId) : Promise.resolve(false);
}

export async function listSessions(core: IdentityCore, uid: string): Promise<SessionInfo[]> {
  const now = Date.now();
  const rows = await store.listLiveSessions(core.deps.db, uid, new Date(now - SESSION_IDLE_MS));
  return rows.filter((r) => now - r.createdAt.getTime() <= SESSION_MAX_AGE_MS).map(toSessionInfo);
}

export async function revokeSession(core: IdentityCore, sessionId: string, reason: string): Promise<void> {
  const uid = await store.revokeSession(core.deps.db, sessionId, reason, new Date());
  if (uid) await invalidate(core, uid);
}

export async function revokeAllSessions(
  core: IdentityCore,
  uid: string,
  reason: string,
  opts: { except?: string } = {},
): Promise<void> {
  await store.revokeSessionsOf(core.deps.db, uid, reason, new Date(), opts.except);
  await invalidate(core, uid);
}

export async function revokeSessionsByUidPrefix(
  core: IdentityCore,
  prefix: string,
  reason: string,
): Promise<void> {
  if (!prefix) throw new Error('a uid prefix is required');
  await store.revokeSessionsByUidPrefix(core.deps.db, prefix, reason, new Date());
  // Only the refresh tokens matter here: whoever owns these accounts (an embed) already refuses
  // their id tokens on every replica, so other replicas' session caches may age out on their own.
  core.cache.invalidate();
}

export async function findRefreshTokenSession(
  core: IdentityCore,
  refreshToken: string,
): Promise<{ sessionId: string; uid: string } | undefined> {
  if (!refreshToken || refreshToken.length > MAX_SECRET_LENGTH) return undefined;
  const found = await store.findRefreshToken(core.deps.db, hashSecret(refreshToken));
  if (!found || found.rotatedAt || found.session.revokedAt || found.account.disabled) return undefined;
  if (sessionExpired(found.session, new Date())) return undefined;
  return { sessionId: found.session.id, uid: found.session.uid };
}

/**
 * grant_type=refresh_token. Rotates on every use; a token presented a second time is a replay
 * and ends its whole session, so whichever of thief and owner comes second is signed out — with
 * one exception (lostAnswer).
 */
export async function refresh(core: IdentityCore, refreshToken: string): Promise<SignedIn> {
  if (!refreshToken) throw identityError('MISSING_REFRESH_TOKEN');
  if (refreshToken.length > MAX_SECRET_LENGTH) throw identityError('INVALID_REFRESH_TOKEN');
  const presented = hashSecret(refreshToken);
  const found = await store.findRefreshToken(core.deps.db, presented);
  if (!found) throw identityError('INVALID_REFRESH_TOKEN');
  const { session, account } = found;
  if (account.disabled) throw identityError('USER_DISABLED');
  if (session.revokedAt) throw identityError('TOKEN_EXPIRED');
  const now = new Date();
  if (found.rotatedAt) {
    const reissued = await lostAnswer(core, presented, found, now);
    if (reissued) return { account, tokens: await tokensFor(core, account, session, reissued) };
    await endReplayedSession(core, session);
    throw identityError('TOKEN_EXPIRED');
  }
  if (sessionExpired(session, now)) {
    await revokeSession(core, session.id, 'expired');
    throw identityError('TOKEN_EXPIRED');
  }
  const next = await rotate(core, presented, presented, session.id, now);
  if (!next) {
    await endReplayedSession(core, session);
    throw identityError('TOKEN_EXPIRED');
  }
  return { account, tokens: await tokensFor(core, account, session, next) };
}

/**
 * A page that unloads while its refresh is in flight never stores the answer, so its next load
 * presents the rotated token again: not a theft, and signing the user out for reloading would be
 * wrong. Within REUSE_GRACE_MS of the rotation, while the token handed out for it is still unused,
 * that successor is retired and a new one issued instead. The successor stays a tripwire: whoever
 * presents it later (a thief racing the owner, or the owner after a thief) ends the session.
 * Returns the new refresh token, or null when this is a replay.
 */
async function lostAnswer(
  core: IdentityCore,
  presented: string,
  found: { rotatedAt: Date | null; replacedBy: string | null; session: SessionRow },
  now: Date,
): Promise<string | null> {
  const { rotatedAt, replacedBy, session } = found;
  if (!rotatedAt || !replacedBy || now.getTime() - rotatedAt.getTime() > REUSE_GRACE_MS) return null;
  if (sessionExpired(session, now)) return null;
  return await rotate(core, replacedBy, presented, session.id, now);
}

/**
 * Retires `retire` and hands out a new token standing for `presented`; null when `retire` was
 * already used. Retiring before answering makes a concurrent replay find the token used.
 */
async function rotate(core: IdentityCore, retire: string, presented: string, sessionId: string, now: Date) {
  const next = newSecret();
  const rotated = await core.deps.db.transaction(async (tx) => {
    if (!(await store.markRotated(tx, retire, now))) return false;
    await store.insertRefreshToken(tx, hashSecret(next), sessionId, now);
    await store.setReplacedBy(tx, presented, hashSecret(next));
    await store.touchSession(tx, sessionId, now);
    return true;
  });
  return rotated ? next : null;
}

async function endReplayedSession(core: IdentityCore, session: SessionRow): Promise<void> {
  core.deps.log.warn(
    { uid: session.uid, sessionId: session.id },
    'identity: a rotated refresh token was presented again; the session is revoked',
  );
  await revokeSession(core, session.id, 'refresh_token_reuse');
}

/** v2/accounts:revokeToken: ends the session of a refresh token. Unknown tokens are not an error (RFC 7009). */
export async function revokeRefreshToken(core: IdentityCore, refreshToken: string): Promise<void> {
  if (!refreshToken || refreshToken.length > MAX_SECRET_LENGTH) return;
  const found = await store.findRefreshToken(core.deps.db, hashSecret(refreshToken));
  if (found) await revokeSession(core, found.session.id, 'signed_out');
}

/**
 * Deletes what no sign-in can use any more: used or expired codes after a day, revoked sessions
 * after 30 days (kept that long for the audit of who was signed in), idle ones 30 days past idling out.
 */
export async function purgeLeftovers(core: IdentityCore, now = Date.now()): Promise<void> {
  await store.purgeStale(core.deps.db, {
    codesBefore: new Date(now - DAY),
    revokedBefore: new Date(now - 30 * DAY),
    idleBefore: new Date(now - SESSION_IDLE_MS - 30 * DAY),
  });
}
