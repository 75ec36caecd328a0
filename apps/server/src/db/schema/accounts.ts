import type { Eula, Role } from '@assistente/contracts';
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';

export type Creator = { name: string; email: string };

export const domains = pgTable('domains', {
  /** The DNS name (acme.com.br); the API copies it into `domain`. */
  id: text('id').primaryKey(),
  displayName: text('display_name').notNull(),
  cnpj: text('cnpj'),
  premium: boolean('premium').notNull().default(false),
  isTrusted: boolean('is_trusted').notNull().default(true),
  active: boolean('active').notNull().default(true),
  creator: jsonb('creator').$type<Creator>().notNull(),
  /** The terms version users of this domain must have accepted (domain settings, docs/ARCHITECTURE.md#organisations-domains-departments-premium). */
  eulaVersion: text('eula_version').notNull().default('v1'),
  /** IANA zone of the domain's days, weeks and months (budgets' periods, usage reports' days). */
  timeZone: text('time_zone').notNull().default('America/Sao_Paulo'),
  ...timestamps,
});

export const departments = pgTable(
  'departments',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'restrict' }),
    displayName: text('display_name').notNull(),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('departments_domain_name_idx').on(t.domainId, t.displayName, t.id)],
);

export const users = pgTable(
  'users',
  {
    /** The lowercased email: the spec's "email (the user id)". */
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'restrict' }),
    departmentId: text('department_id').notNull(),
    role: text('role').$type<Role>().notNull().default('Viewer'),
    type: text('type').notNull().default('user'),
    active: boolean('active').notNull().default(true),
    creator: jsonb('creator').$type<Creator>().notNull(),
    eula: jsonb('eula').$type<Eula>().notNull(),
    locale: text('locale'),
    /** Under legal hold nothing of the person is deleted: not by retention, not by erasure. */
    legalHold: boolean('legal_hold').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    // Keyset paging of GET /api/v1/user: one index per sort, within a domain and across all.
    index('users_domain_name_idx').on(t.domainId, t.displayName, t.id),
    index('users_domain_id_idx').on(t.domainId, t.id),
    index('users_domain_created_idx').on(t.domainId, t.createdAt, t.id),
    index('users_name_idx').on(t.displayName, t.id),
    index('users_department_idx').on(t.departmentId),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);
