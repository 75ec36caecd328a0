import type { Role } from '@assistente/contracts';
import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { identityAccounts } from './identity.ts';

/** An OpenID Connect provider a SuperAdmin configured (docs/ARCHITECTURE.md#single-sign-on). The client secret is sealed with SECRET_KEY. */
export const ssoProviders = pgTable('sso_providers', {
  id: text('id').primaryKey(),
  displayName: text('display_name').notNull(),
  /** Without a trailing slash, as compared with the id token's `iss`. */
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  /** AES-256-GCM sealed, bound to the row id (lib/secrets.ts); null for public clients (PKCE only). */
  clientSecretEnc: text('client_secret_enc'),
  /** Lowercased e-mail domains this provider vouches for. */
  domains: jsonb('domains').$type<string[]>().notNull().default([]),
  autoProvision: boolean('auto_provision').notNull().default(false),
  defaultRole: text('default_role').$type<Role>().notNull().default('Viewer'),
  enabled: boolean('enabled').notNull().default(true),
  ...timestamps,
});

/**
 * The one-time code a finished SSO callback hands to the login page, exchanged once through
 * accounts:signInWithIdp for an ordinary session. Stored hashed; lives a minute.
 */
export const ssoHandoffs = pgTable(
  'sso_handoffs',
  {
    codeHash: text('code_hash').primaryKey(),
    uid: text('uid')
      .notNull()
      .references(() => identityAccounts.uid, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    /** The subject at the provider (`sub`), answered as `federatedId`. */
    subject: text('subject').notNull(),
    isNewUser: boolean('is_new_user').notNull().default(false),
    ip: text('ip'),
    userAgent: text('user_agent'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    /** The session the code opened: a second use of the code ends it (the code leaked). */
    sessionId: text('session_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sso_handoffs_expires_idx').on(t.expiresAt)],
);
