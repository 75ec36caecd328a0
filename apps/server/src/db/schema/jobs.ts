import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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

/**
 * Each run of a job, by the schedule or by hand (`POST /api/v1/jobs/{name}/run`), with what it did:
 * `GET /api/v1/jobs` and the retention screen show the last one. The scheduler keeps the newest 50 per job.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: text('id').primaryKey(),
    job: text('job').notNull(),
    trigger: text('trigger').$type<'schedule' | 'manual'>().notNull(),
    by: text('by'),
    status: text('status').$type<'running' | 'ok' | 'failed'>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    error: text('error'),
  },
  (t) => [index('job_runs_job_started_idx').on(t.job, t.startedAt.desc())],
);
