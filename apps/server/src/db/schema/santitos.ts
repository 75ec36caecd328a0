import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { departments, domains } from './accounts.ts';

/** A santito: an assistant of a domain (docs/ARCHITECTURE.md#organisations-domains-departments-premium). */
export const santitos = pgTable(
  'santitos',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    authorId: text('author_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** An emoji, or the storage key of an uploaded image. */
    avatar: text('avatar'),
    /** Set when `avatar` is an uploaded image: its size counts against the domain's storage quota. */
    avatarSize: integer('avatar_size'),
    avatarContentType: text('avatar_content_type'),
    instructions: text('instructions').notNull().default(''),
    model: text('model'),
    starters: jsonb('starters').$type<string[]>().notNull().default([]),
    knowledge: jsonb('knowledge')
      .$type<Array<{ kind: string; ref: string; title: string }>>()
      .notNull()
      .default([]),
    /** Tool references its answers may call (contracts' ToolRefSchema). */
    tools: jsonb('tools').$type<string[]>().notNull().default([]),
    maxSteps: integer('max_steps').notNull().default(8),
    visibility: text('visibility').$type<'domain' | 'department'>().notNull().default('domain'),
    departmentId: text('department_id').references(() => departments.id, { onDelete: 'set null' }),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('santitos_domain_name_idx').on(t.domainId, t.name, t.id)],
);
