import { and, desc, eq, gt, inArray, isNull, like, lt, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  identityAccounts,
  identitySessions,
  oobCodes,
  refreshTokens,
  ssoHandoffs,
} from '../../db/schema/index.ts';

/** The identity tables' SQL, nothing else: rules live in service.ts. */

export type Executor = Db | Tx;
export type AccountRow = typeof identityAccounts.$inferSelect;
export type SessionRow = typeof identitySessions.$inferSelect;

const emailMatches = (email: string) => sql`lower(${identityAccounts.email}) = lower(${email})`;

export async function insertAccount(
  db: Executor,
  values: Pick<AccountRow, 'uid' | 'email' | 'displayName' | 'emailVerified' | 'passwordHash'> & {
    passwordUpdatedAt: Date | null;
  },
): Promise<AccountRow> {
  const [row] = await db.insert(identityAccounts).values(values).returning();
  if (!row) throw new Error('insert into identity_accounts returned nothing');
  return row;
}

export async function findAccountByEmail(db: Executor, email: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(identityAccounts).where(emailMatches(email)).limit(1);
  return row;
}

/** Of `emails` (lower-cased), those whose account has no password yet: invited, never signed in. */
export async function passwordlessEmails(db: Executor, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const lower = sql<string>`lower(${identityAccounts.email})`;
  const rows = await db
    .select({ email: lower })
    .from(identityAccounts)
    .where(and(inArray(lower, [...emails]), isNull(identityAccounts.passwordHash)));
  return rows.map((r) => r.email);
}

export async function findAccountByUid(db: Executor, uid: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(identityAccounts).where(eq(identityAccounts.uid, uid)).limit(1);
  return row;
}

export async function updateAccount(
  db: Executor,
  uid: string,
  patch: Partial<
    Pick<
      AccountRow,
      'passwordHash' | 'passwordUpdatedAt' | 'disabled' | 'displayName' | 'emailVerified' | 'lastLoginAt'
    >
  >,
): Promise<boolean> {
  const rows = await db
    .update(identityAccounts)
    .set(patch)
    .where(eq(identityAccounts.uid, uid))
    .returning({ uid: identityAccounts.uid });
  return rows.length > 0;
}

export async function deleteAccount(db: Executor, uid: string): Promise<boolean> {
  const rows = await db
    .delete(identityAccounts)
    .where(eq(identityAccounts.uid, uid))
    .returning({ uid: identityAccounts.uid });
  return rows.length > 0;
}

// ── sessions ────────────────────────────────────────────────────────────────────────────────

export async function insertSession(
  db: Executor,
  values: Pick<SessionRow, 'id' | 'uid' | 'kind' | 'name' | 'ip' | 'userAgent' | 'authTime' | 'lastUsedAt'>,
): Promise<SessionRow> {
  const [row] = await db.insert(identitySessions).values(values).returning();
  if (!row) throw new Error('insert into identity_sessions returned nothing');
  return row;
}

/**
 * A session with a known id and its first refresh token, unless the session is already stored
 * (a minted visitor session stored by a racing request, or one that ended since).
 */
export async function insertSessionOnce(
  db: Executor,
  values: Pick<SessionRow, 'id' | 'uid' | 'kind' | 'name' | 'ip' | 'userAgent' | 'authTime' | 'lastUsedAt'>,
  tokenHash: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(identitySessions)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: identitySessions.id });
    if (row)
      await tx.insert(refreshTokens).values({ tokenHash, sessionId: row.id, createdAt: values.lastUsedAt });
  });
}

export async function findSession(db: Executor, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(identitySessions).where(eq(identitySessions.id, id)).limit(1);
  return row;
}

/** What the hot-path check needs: is the session live and its account enabled. */
export async function sessionState(
  db: Executor,
  id: string,
): Promise<{ uid: string; revoked: boolean; disabled: boolean } | undefined> {
  const [row] = await db
    .select({
      uid: identitySessions.uid,
      revokedAt: identitySessions.revokedAt,
      disabled: identityAccounts.disabled,
    })
    .from(identitySessions)
    .innerJoin(identityAccounts, eq(identityAccounts.uid, identitySessions.uid))
    .where(eq(identitySessions.id, id))
    .limit(1);
  return row && { uid: row.uid, revoked: row.revokedAt !== null, disabled: row.disabled };
}

export async function listLiveSessions(db: Executor, uid: string, usedSince: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(identitySessions)
    .where(
      and(
        eq(identitySessions.uid, uid),
        isNull(identitySessions.revokedAt),
        gt(identitySessions.lastUsedAt, usedSince),
      ),
    )
    .orderBy(desc(identitySessions.lastUsedAt), desc(identitySessions.id));
}

export async function touchSession(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(identitySessions).set({ lastUsedAt: at }).where(eq(identitySessions.id, id));
}

/** Revokes one live session; answers its uid when it was live. */
export async function revokeSession(
  db: Executor,
  id: string,
  reason: string,
  at: Date,
): Promise<string | undefined> {
  const [row] = await db
    .update(identitySessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(identitySessions.id, id), isNull(identitySessions.revokedAt)))
    .returning({ uid: identitySessions.uid });
  return row?.uid;
}

/** Revokes every live session of an account, but `except`; answers how many. */
export async function revokeSessionsOf(
  db: Executor,
  uid: string,
  reason: string,
  at: Date,
  except?: string,
): Promise<number> {
  const rows = await db
    .update(identitySessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(
      and(
        eq(identitySessions.uid, uid),
        isNull(identitySessions.revokedAt),
        except ? ne(identitySessions.id, except) : undefined,
      ),
    )
    .returning({ id: identitySessions.id });
  return rows.length;
}

// ── refresh tokens ──────────────────────────────────────────────────────────────────────────

export async function insertRefreshToken(db: Executor, tokenHash: string, sessionId: string, at: Date) {
  await db.insert(refreshTokens).values({ tokenHash, sessionId, createdAt: at });
}

/** Records which token now stands for `tokenHash`. */
export async function setReplacedBy(db: Executor, tokenHash: string, successorHash: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ replacedBy: successorHash })
    .where(eq(refreshTokens.tokenHash, tokenHash));
}

/** A presented refresh token with its session and account. */
export async function findRefreshToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      rotatedAt: refreshTokens.rotatedAt,
      replacedBy: refreshTokens.replacedBy,
      session: identitySessions,
      account: identityAccounts,
    })
    .from(refreshTokens)
    .innerJoin(identitySessions, eq(identitySessions.id, refreshTokens.sessionId))
    .innerJoin(identityAccounts, eq(identityAccounts.uid, identitySessions.uid))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Marks a token used, only if nobody did before: false means it was already rotated (a replay). */
export async function markRotated(db: Executor, tokenHash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ rotatedAt: at })
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.rotatedAt)))
    .returning({ tokenHash: refreshTokens.tokenHash });
  return rows.length === 1;
}

/** Retires every current token of a session (before handing it a new one). */
export async function rotateAllOfSession(db: Executor, sessionId: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ rotatedAt: at })
    .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.rotatedAt)));
}

// ── out-of-band codes ───────────────────────────────────────────────────────────────────────

export async function insertOobCode(
  db: Executor,
  values: { codeHash: string; uid: string; requestType: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.insert(oobCodes).values(values);
}

export async function findOobCode(db: Executor, codeHash: string) {
  const [row] = await db
    .select({ code: oobCodes, account: identityAccounts })
    .from(oobCodes)
    .innerJoin(identityAccounts, eq(identityAccounts.uid, oobCodes.uid))
    .where(eq(oobCodes.codeHash, codeHash))
    .limit(1);
  return row;
}

/** Uses a code if it is still unused and unexpired; answers its uid, or undefined. */
export async function consumeOobCode(db: Executor, codeHash: string, at: Date): Promise<string | undefined> {
  const [row] = await db
    .update(oobCodes)
    .set({ usedAt: at })
    .where(and(eq(oobCodes.codeHash, codeHash), isNull(oobCodes.usedAt), gt(oobCodes.expiresAt, at)))
    .returning({ uid: oobCodes.uid });
  return row?.uid;
}

/** After a password was set, every other outstanding link of the account stops working. */
export async function voidOobCodesOf(db: Executor, uid: string, at: Date): Promise<void> {
  await db
    .update(oobCodes)
    .set({ usedAt: at })
    .where(and(eq(oobCodes.uid, uid), isNull(oobCodes.usedAt)));
}

// ── single sign-on handoff codes ─────────────────────────────────────────────────────────────

export type IdpHandoffRow = typeof ssoHandoffs.$inferSelect;

export async function insertIdpHandoff(
  db: Executor,
  values: Omit<IdpHandoffRow, 'usedAt' | 'sessionId' | 'createdAt'>,
): Promise<void> {
  await db.insert(ssoHandoffs).values(values);
}

/** Marks a live code used, once: of two concurrent exchanges only one gets the row. */
export async function consumeIdpHandoff(
  db: Executor,
  codeHash: string,
  at: Date,
): Promise<IdpHandoffRow | undefined> {
  const [row] = await db
    .update(ssoHandoffs)
    .set({ usedAt: at })
    .where(and(eq(ssoHandoffs.codeHash, codeHash), isNull(ssoHandoffs.usedAt), gt(ssoHandoffs.expiresAt, at)))
    .returning();
  return row;
}

export async function findIdpHandoff(db: Executor, codeHash: string): Promise<IdpHandoffRow | undefined> {
  const [row] = await db.select().from(ssoHandoffs).where(eq(ssoHandoffs.codeHash, codeHash)).limit(1);
  return row;
}

export async function setIdpHandoffSession(db: Executor, codeHash: string, sessionId: string): Promise<void> {
  await db.update(ssoHandoffs).set({ sessionId }).where(eq(ssoHandoffs.codeHash, codeHash));
}

// ── housekeeping ────────────────────────────────────────────────────────────────────────────

/** Deletes what can no longer be used: old codes, long-revoked or long-idle sessions (and their tokens). */
export async function purgeStale(
  db: Executor,
  opts: { codesBefore: Date; revokedBefore: Date; idleBefore: Date },
): Promise<void> {
  await db
    .delete(oobCodes)
    .where(or(lt(oobCodes.expiresAt, opts.codesBefore), lt(oobCodes.usedAt, opts.codesBefore)));
  await db.delete(ssoHandoffs).where(lt(ssoHandoffs.expiresAt, opts.codesBefore));
  await db
    .delete(identitySessions)
    .where(
      or(
        lt(identitySessions.revokedAt, opts.revokedBefore),
        lt(identitySessions.lastUsedAt, opts.idleBefore),
      ),
    );
}

/** Revokes every live session of every account whose uid starts with `prefix`; answers how many. */
export async function revokeSessionsByUidPrefix(
  db: Executor,
  prefix: string,
  reason: string,
  at: Date,
): Promise<number> {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db
    .update(identitySessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(like(identitySessions.uid, `${escaped}%`), isNull(identitySessions.revokedAt)))
    .returning({ id: identitySessions.id });
  return rows.length;
}

/** A passwordless account with a chosen uid (an embedded chat's visitor); nothing when it exists. */
/**
 * A passwordless account, created on first sight and returned in the same statement; a non-empty
 * `displayName` replaces the stored one (a signed visitor's name may change), an empty one keeps it.
 */
export async function upsertPasswordlessAccount(
  db: Executor,
  values: Pick<AccountRow, 'uid' | 'email' | 'displayName'>,
): Promise<AccountRow> {
  const [row] = await db
    .insert(identityAccounts)
    .values({ ...values, emailVerified: false })
    .onConflictDoUpdate({
      target: identityAccounts.uid,
      set: {
        displayName: sql`coalesce(nullif(excluded.display_name, ''), ${identityAccounts.displayName})`,
      },
    })
    .returning();
  if (!row) throw new Error('the account could not be stored');
  return row;
}
