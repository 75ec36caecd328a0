import type { PiiKind, PiiMode, RetentionSettings } from '@assistente/contracts';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { domains } from './accounts.ts';

// The governance module's tables (docs/ARCHITECTURE.md#governance).

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A domain's retention rule; no row keeps everything. Null days keep forever. */
export const retentionSettings = pgTable('retention_settings', {
  domainId: text('domain_id')
    .primaryKey()
    .references(() => domains.id, { onDelete: 'cascade' }),
  chatsDays: integer('chats_days'),
  filesDays: integer('files_days'),
  visitorChatsDays: integer('visitor_chats_days'),
  apiLogsDays: integer('api_logs_days'),
  exemptPinned: boolean('exempt_pinned').notNull().default(false),
  departments: jsonb('departments').$type<RetentionSettings['departments']>().notNull().default({}),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/** A domain's PII and credential filter; no row is off. */
export const piiSettings = pgTable('pii_settings', {
  domainId: text('domain_id')
    .primaryKey()
    .references(() => domains.id, { onDelete: 'cascade' }),
  mode: text('mode').$type<PiiMode>().notNull().default('off'),
  kinds: jsonb('kinds').$type<PiiKind[]>().notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * An export asked for: who asked, of whom, until when its download works. The ZIP is written as it
 * is downloaded, never stored. No foreign keys: the record outlives the person it exported.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id').notNull(),
    requestedBy: text('requested_by').notNull(),
    scope: text('scope').$type<'me' | 'user' | 'department'>().notNull(),
    subjectId: text('subject_id').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('data_exports_requested_by_idx').on(t.requestedBy, t.createdAt.desc())],
);
