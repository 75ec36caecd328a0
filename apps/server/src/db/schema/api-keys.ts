import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains, users } from './accounts.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Personal API keys (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api). Only the SHA-256 of the secret is kept: the secret carries 256
 * random bits, so a fast hash is as safe as a slow one and lets every request find its key by index.
 * A revoked key is deleted (its audit entry remains).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The identity account the key acts as: its state (disabled, deleted) stops the key too. */
    uid: text('uid').notNull(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The secret's first characters, shown so people can tell keys apart. */
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    expiresAt: at('expires_at'),
    lastUsedAt: at('last_used_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash),
    index('api_keys_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('api_keys_domain_created_idx').on(t.domainId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * One call of the OpenAI-compatible API: its tokens, counted in the user's usage beside their chat
 * answers (`messages.usage`). Kept when the key is revoked (`keyId` then points nowhere).
 */
export const apiUsage = pgTable(
  'api_usage',
  {
    id: text('id').primaryKey(),
    keyId: text('key_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domainId: text('domain_id').notNull(),
    /** What the client asked for: `provider:model` or `santito:{id}`. */
    requestedModel: text('requested_model').notNull(),
    /** The `provider:model` that answered. */
    model: text('model').notNull(),
    santitoId: text('santito_id'),
    stream: boolean('stream').notNull(),
    status: text('status').$type<'complete' | 'stopped' | 'error'>().notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    totalTokens: integer('total_tokens').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('api_usage_user_created_idx').on(t.userId, t.createdAt),
    index('api_usage_domain_created_idx').on(t.domainId, t.createdAt),
  ],
);
