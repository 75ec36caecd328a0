import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per background job (lib/scheduler.ts): the replica that holds it until `until` runs it;
 * the others skip it. A lease rather than an advisory lock: it needs no pinned connection and works
 * the same on PGlite and PostgreSQL.
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true, mode: 'date' }).notNull(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true, mode: 'date' }),
});
