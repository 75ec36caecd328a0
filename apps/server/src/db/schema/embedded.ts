import type { VisitorIdentity, VisitorLimits } from '@assistente/contracts';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains } from './accounts.ts';
import { santitos } from './santitos.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** An embed of one santito on other sites (docs/ARCHITECTURE.md#embedded-chat). The signing secret is sealed with SECRET_KEY. */
export const virtualAccounts = pgTable(
  'virtual_accounts',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    displayName: text('display_name').notNull(),
    color: text('color').notNull(),
    agentId: text('agent_id').references(() => santitos.id, { onDelete: 'set null' }),
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    welcome: text('welcome').notNull().default(''),
    identity: text('identity').$type<VisitorIdentity>().notNull().default('anonymous'),
    limits: jsonb('limits').$type<VisitorLimits>().notNull(),
    allowAttachments: boolean('allow_attachments').notNull().default(false),
    /** AES-256-GCM sealed, bound to the row id (lib/secrets.ts): the HMAC key must be usable, not only checkable. */
    secretEnc: text('secret_enc').notNull(),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('virtual_accounts_domain_idx').on(t.domainId, t.displayName, t.id)],
);

/**
 * A visitor of an embed: server-issued for anonymous visitors, the site's own id for signed ones.
 * Kept so the Admin screen can count them and signed visitors' names show on their chats.
 */
export const embeddedVisitors = pgTable(
  'embedded_visitors',
  {
    virtualAccountId: text('virtual_account_id')
      .notNull()
      .references(() => virtualAccounts.id, { onDelete: 'cascade' }),
    visitorId: text('visitor_id').notNull(),
    displayName: text('display_name').notNull().default(''),
    email: text('email'),
    signed: boolean('signed').notNull().default(false),
    createdAt: at('created_at').notNull().defaultNow(),
    lastSeenAt: at('last_seen_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.virtualAccountId, t.visitorId] }),
    index('embedded_visitors_seen_idx').on(t.virtualAccountId, t.lastSeenAt),
  ],
);

/**
 * Chats started and messages sent through an embed, per UTC day: the Admin screen's last-30-days
 * counts, kept apart from the chats themselves so counting never scans them.
 */
export const embeddedUsage = pgTable(
  'embedded_usage',
  {
    virtualAccountId: text('virtual_account_id')
      .notNull()
      .references(() => virtualAccounts.id, { onDelete: 'cascade' }),
    /** `YYYY-MM-DD`, UTC. */
    day: text('day').notNull(),
    chats: integer('chats').notNull().default(0),
    messages: integer('messages').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.virtualAccountId, t.day] })],
);
