import type { ModelAccess, ProviderKind } from '@assistente/contracts';
import { boolean, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains } from './accounts.ts';

/** A model provider a domain's Admin connected (docs/ARCHITECTURE.md#model-providers). The API key is sealed with SECRET_KEY. */
export const providerConfigs = pgTable(
  'provider_configs',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ProviderKind>().notNull(),
    label: text('label').notNull(),
    baseUrl: text('base_url'),
    /** AES-256-GCM sealed, bound to the row id (lib/secrets.ts); never the key in clear. */
    apiKeyEnc: text('api_key_enc'),
    /** The key's last 4 characters, shown so Admins can tell keys apart. */
    apiKeyHint: text('api_key_hint'),
    models: jsonb('models').$type<string[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('provider_configs_domain_idx').on(t.domainId, t.createdAt)],
);

/** Per-domain AI settings: the default model (`provider:model`) and who may use which model. */
export const domainAiSettings = pgTable('domain_ai_settings', {
  domainId: text('domain_id')
    .primaryKey()
    .references(() => domains.id, { onDelete: 'cascade' }),
  defaultModel: text('default_model'),
  /** docs/ARCHITECTURE.md#model-access; null = no rules, every model open. */
  modelAccess: jsonb('model_access').$type<ModelAccess>(),
  ...timestamps,
});
