import type { McpDiscoveryFailure, McpTool, McpVisibility, ToolRule } from '@assistente/contracts';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains, users } from './accounts.ts';

/**
 * An MCP server (streamable HTTP) of a domain (docs/ARCHITECTURE.md#mcp-servers). An auth header's
 * value is sealed with SECRET_KEY, bound to the row id; the tools are what the last discovery found.
 */
export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: text('id').primaryKey(),
    domainId: text('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    /** A person's private server (scope `user`); null for a domain's. */
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    displayName: text('display_name').notNull(),
    url: text('url').notNull(),
    visibleTo: jsonb('visible_to').$type<McpVisibility>().notNull().default({ roles: [], departments: [] }),
    authKind: text('auth_kind').$type<'none' | 'header' | 'oauth'>().notNull().default('none'),
    authHeaderName: text('auth_header_name'),
    /** AES-256-GCM sealed header value (lib/secrets.ts); never in clear. */
    authValueEnc: text('auth_value_enc'),
    /** OAuth: a client given by the Admin (its secret sealed), else the one registered dynamically. */
    oauthClientId: text('oauth_client_id'),
    oauthClientSecretEnc: text('oauth_client_secret_enc'),
    oauthScopes: jsonb('oauth_scopes').$type<string[]>().notNull().default([]),
    /** The dynamic registration's answer (client id, secret, issuer), sealed. */
    oauthRegistrationEnc: text('oauth_registration_enc'),
    enabled: boolean('enabled').notNull().default(true),
    tools: jsonb('tools').$type<McpTool[]>().notNull().default([]),
    toolsAt: timestamp('tools_at', { withTimezone: true }),
    lastError: jsonb('last_error').$type<{ reason: McpDiscoveryFailure; message: string }>(),
    ...timestamps,
  },
  (t) => [index('mcp_servers_domain_idx').on(t.domainId, t.createdAt)],
);

/**
 * A person's OAuth connection to a server (docs/ARCHITECTURE.md#mcp-servers): their tokens, sealed
 * and bound to the server and the person; while connecting, the state and PKCE verifier.
 */
export const mcpTokens = pgTable(
  'mcp_tokens',
  {
    serverId: text('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokensEnc: text('tokens_enc'),
    pendingState: text('pending_state'),
    pendingVerifierEnc: text('pending_verifier_enc'),
    pendingAt: timestamp('pending_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.serverId, t.userId] }), index('mcp_tokens_state_idx').on(t.pendingState)],
);

/** A domain's tool policy (docs/ARCHITECTURE.md#tool-policy); a domain without a row has the defaults. */
/** A domain's web search as stored. */
export interface StoredWebSearch {
  provider: 'searxng' | 'brave' | 'tavily';
  url: string | null;
  apiKeyEnc: string | null;
}

export const toolPolicies = pgTable('tool_policies', {
  domainId: text('domain_id')
    .primaryKey()
    .references(() => domains.id, { onDelete: 'cascade' }),
  rules: jsonb('rules').$type<ToolRule[]>().notNull().default([]),
  userServers: boolean('user_servers').notNull().default(false),
  /** Where `web_search` searches; the API key sealed (`{domainId}:web-search`). Null: off. */
  webSearch: jsonb('web_search').$type<StoredWebSearch>(),
  /** The tools of chats without a santito. */
  defaultTools: jsonb('default_tools').$type<string[]>().notNull().default([]),
  ...timestamps,
});
