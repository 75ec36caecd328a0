import type { AuditAction, AuditTargetType } from '@assistente/contracts';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every administrative change (docs/ARCHITECTURE.md#organisations-domains-departments-premium, issue 3): written in the same transaction as the change.
 * No foreign keys: the record outlives the user, domain or department it names.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: text('id').primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The domain the change belongs to (its Admins read it); null for instance-wide changes. */
    domainId: text('domain_id'),
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').$type<AuditAction>().notNull(),
    targetType: text('target_type').$type<AuditTargetType>().notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    // Newest first, within a domain (Admins) and across all (SuperAdmins).
    index('audit_entries_domain_at_idx').on(t.domainId, t.at.desc(), t.id.desc()),
    index('audit_entries_at_idx').on(t.at.desc(), t.id.desc()),
    index('audit_entries_target_idx').on(t.targetType, t.targetId),
    index('audit_entries_actor_idx').on(t.actorId),
  ],
);
