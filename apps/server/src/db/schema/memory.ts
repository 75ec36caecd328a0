import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains, users } from './accounts.ts';

/** A person's memories (docs/ARCHITECTURE.md#memory): only ever read for that person. */
export const memories = pgTable(
  'memories',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domainId: text('domain_id').notNull(),
    text: text('text').notNull(),
    source: text('source').$type<'user' | 'assistant'>().notNull(),
    ...timestamps,
  },
  (t) => [index('memories_user_idx').on(t.userId, t.createdAt.desc())],
);

/** Whether a domain has memory on; no row is off. */
export const memorySettings = pgTable('memory_settings', {
  domainId: text('domain_id')
    .primaryKey()
    .references(() => domains.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
