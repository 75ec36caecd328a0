import type { PromptScope } from '@assistente/contracts';
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains, users } from './accounts.ts';

/**
 * The prompt library (docs/ARCHITECTURE.md#prompt-library): the current version of each prompt.
 * `departmentId` is set for department prompts only.
 */
export const prompts = pgTable(
  'prompts',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').$type<PromptScope>().notNull(),
    departmentId: text('department_id'),
    title: text('title').notNull(),
    command: text('command').notNull(),
    content: text('content').notNull(),
    version: integer('version').notNull().default(1),
    ...timestamps,
  },
  (t) => [index('prompts_domain_idx').on(t.domainId, t.scope), index('prompts_user_idx').on(t.userId)],
);

/** Every version of a prompt, the current one included, for history and rollback. */
export const promptVersions = pgTable(
  'prompt_versions',
  {
    promptId: text('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** Who wrote this version (the author, or an Admin who changed it). */
    userId: text('user_id').notNull(),
    scope: text('scope').$type<PromptScope>().notNull(),
    title: text('title').notNull(),
    command: text('command').notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.promptId, t.version] })],
);
