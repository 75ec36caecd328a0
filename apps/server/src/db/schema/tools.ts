import type { McpDiscoveryFailure, McpTool, McpVisibility, ToolRule } from '@assistente/contracts';
import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './_helpers.ts';
import { domains } from './accounts.ts';

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
    displayName: text('display_name').notNull(),
    url: text('url').notNull(),
    visibleTo: jsonb('visible_to').$type<McpVisibility>().notNull().default({ roles: [], departments: [] }),
    authKind: text('auth_kind').$type<'none' | 'header'>().notNull().default('none'),
    authHeaderName: text('auth_header_name'),
    /** AES-256-GCM sealed header value (lib/secrets.ts); never in clear. */
    authValueEnc: text('auth_value_enc'),
    enabled: boolean('enabled').notNull().default(true),
    tools: jsonb('tools').$type<McpTool[]>().notNull().default([]),
    toolsAt: timestamp('tools_at', { withTimezone: true }),
    lastError: jsonb('last_error').$type<{ reason: McpDiscoveryFailure; message: string }>(),
    ...timestamps,
  },
  (t) => [index('mcp_servers_domain_idx').on(t.domainId, t.createdAt)],
);

/** A domain's tool policy (docs/ARCHITECTURE.md#tool-policy); a domain without a row has the defaults. */
export const toolPolicies = pgTable('tool_policies', {
  domainId: text('domain_id')
    .primaryKey()
    .references(() => domains.id, { onDelete: 'cascade' }),
  rules: jsonb('rules').$type<ToolRule[]>().notNull().default([]),
  userServers: boolean('user_servers').notNull().default(false),
  ...timestamps,
});
