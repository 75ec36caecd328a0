import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The identity provider's account (Firebase "user"): uid, credentials, state. */
export const identityAccounts = pgTable(
  'identity_accounts',
  {
    uid: text('uid').primaryKey(),
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    displayName: text('display_name').notNull().default(''),
    passwordHash: text('password_hash'),
    disabled: boolean('disabled').notNull().default(false),
    passwordUpdatedAt: at('password_updated_at'),
    lastLoginAt: at('last_login_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('identity_accounts_email_lower_idx').on(sql`lower(${t.email})`)],
);

/** A sign-in session: one refresh-token family. Revoking it ends every token of the family. */
export const identitySessions = pgTable(
  'identity_sessions',
  {
    id: text('id').primaryKey(),
    uid: text('uid')
      .notNull()
      .references(() => identityAccounts.uid, { onDelete: 'cascade' }),
    /** "web", or the editor's name for sessions minted by the code-assist handoff. */
    kind: text('kind').notNull().default('web'),
    name: text('name').notNull().default(''),
    userAgent: text('user_agent'),
    ip: text('ip'),
    authTime: at('auth_time').notNull().defaultNow(),
    lastUsedAt: at('last_used_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
    revokedReason: text('revoked_reason'),
    ...timestamps,
  },
  (t) => [index('identity_sessions_uid_idx').on(t.uid)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => identitySessions.id, { onDelete: 'cascade' }),
    /** Set when rotated: presenting it again is reuse and revokes the family. */
    rotatedAt: at('rotated_at'),
    /** The newest token handed out for this one: it may stand in for a lost answer (REUSE_GRACE_MS). */
    replacedBy: text('replaced_by'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const oobCodes = pgTable(
  'oob_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    uid: text('uid')
      .notNull()
      .references(() => identityAccounts.uid, { onDelete: 'cascade' }),
    requestType: text('request_type').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('oob_codes_uid_idx').on(t.uid)],
);

/** Code-assist handoff codes (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension): single-use, 60 s, bound to challenge, redirect and user. */
export const authCodes = pgTable('auth_codes', {
  codeHash: text('code_hash').primaryKey(),
  uid: text('uid')
    .notNull()
    .references(() => identityAccounts.uid, { onDelete: 'cascade' }),
  codeChallenge: text('code_challenge').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  expiresAt: at('expires_at').notNull(),
  consumedAt: at('consumed_at'),
  /** The session the exchange minted: revoked if the code is replayed. */
  mintedSessionId: text('minted_session_id'),
  createdAt: at('created_at').notNull().defaultNow(),
});
