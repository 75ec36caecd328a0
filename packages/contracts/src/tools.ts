import { z } from 'zod';
import { RoleSchema } from './accounts.ts';
import { httpUrlSchema } from './urls.ts';
import { BuiltinToolNames } from './values.ts';

/** Limits of MCP servers (docs/ARCHITECTURE.md#mcp-servers). */
export const McpLimits = {
  displayNameMax: 100,
  /** Servers one domain may hold: enough for every team's tools, few enough to review. */
  perDomain: 50,
  /** Private servers one person may add, when their domain allows it. */
  perUser: 10,
  /** Tools kept of one server's list; a server offering more is cut, and says so. */
  toolsPerServer: 200,
  /** How long discovering a server's tools may take, connection included. */
  discoverTimeoutMs: 15_000,
} as const;

/** A header name as HTTP allows it (RFC 9110 token). */
const HeaderNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'A header name has letters, digits and - only');

const ScopesSchema = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(/^[^\s]+$/, 'One scope per entry'),
  )
  .max(50);

/**
 * How Assistente authenticates to a server: not at all, with a fixed header (an API key, a bearer
 * token), or with OAuth 2.1 where each person connects their own account. Secrets (the header's
 * value, a client secret) are sealed and never sent back. Without a `clientId` the client
 * registers itself with the authorization server (dynamic client registration).
 */
export const McpAuthInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({
    kind: z.literal('header'),
    name: HeaderNameSchema,
    /** Absent on an update: the stored value is kept. */
    value: z.string().min(1).max(4_000).optional(),
  }),
  z.object({
    kind: z.literal('oauth'),
    clientId: z.string().trim().min(1).max(500).optional(),
    /** Absent on an update: the stored secret is kept. */
    clientSecret: z.string().min(1).max(4_000).optional(),
    scopes: ScopesSchema.optional(),
  }),
]);
export type McpAuthInput = z.infer<typeof McpAuthInputSchema>;

/** The auth as the API shows it: the header's name, whether a value is stored, never the value. */
export const McpAuthSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('header'), name: z.string(), hasValue: z.boolean() }),
  z.object({
    kind: z.literal('oauth'),
    /** Null: registered dynamically. */
    clientId: z.string().nullable(),
    hasClientSecret: z.boolean(),
    scopes: z.array(z.string()),
  }),
]);
export type McpAuth = z.infer<typeof McpAuthSchema>;

/** Who sees a domain server's tools: everyone of the domain when both lists are empty. */
export const McpVisibilitySchema = z.object({
  roles: z.array(RoleSchema).max(10).default([]),
  departments: z.array(z.string().min(1).max(100)).max(200).default([]),
});
export type McpVisibility = z.infer<typeof McpVisibilitySchema>;

/** One tool a server offers, as discovered. */
export const McpToolSchema = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  /** The tool's input as the server declared it (JSON Schema). */
  inputSchema: z.record(z.string(), z.unknown()),
  /** The server says the tool only reads (MCP's `readOnlyHint`). */
  readOnly: z.boolean(),
});
export type McpTool = z.infer<typeof McpToolSchema>;

/** Why discovering a server's tools failed, for the web to say in words. */
export const McpDiscoveryFailures = [
  'unreachable',
  'unauthorized',
  'not_mcp',
  'timeout',
  'blocked',
  /** An OAuth server nobody connected to yet: its tools are listed once someone does. */
  'not_connected',
] as const;
export const McpDiscoveryFailureSchema = z.enum(McpDiscoveryFailures);
export type McpDiscoveryFailure = z.infer<typeof McpDiscoveryFailureSchema>;

/** GET /api/v1/integration/mcp/{id}: an MCP server (streamable HTTP) of a domain. */
export const McpServerSchema = z.object({
  id: z.string(),
  domain: z.string(),
  displayName: z.string(),
  url: z.string(),
  /** `domain`: an Admin's, for the domain; `user`: a person's own, only they see it. */
  scope: z.enum(['domain', 'user']),
  /** The person whose server it is (`scope: user`); null for a domain's. */
  ownerId: z.string().nullable(),
  visibleTo: McpVisibilitySchema,
  auth: McpAuthSchema,
  /** With OAuth: whether the caller connected their account (null for other servers). */
  connected: z.boolean().nullable(),
  enabled: z.boolean(),
  /** What the last discovery found (read-only). */
  tools: z.array(McpToolSchema),
  /** When the tools were last discovered; null before the first success. */
  toolsAt: z.iso.datetime().nullable(),
  /** The last discovery's failure, with the server's own words; null after a success. */
  lastError: z.object({ reason: McpDiscoveryFailureSchema, message: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type McpServer = z.infer<typeof McpServerSchema>;

const McpUrlSchema = httpUrlSchema({
  credentials: 'Put credentials in the authentication header, not in the URL',
});

/** POST /api/v1/integration/mcp: the server's tools are discovered at once. */
export const McpServerCreateSchema = z.object({
  displayName: z.string().trim().min(1).max(McpLimits.displayNameMax),
  url: McpUrlSchema,
  /** `user`: a private server of the caller's (when the domain's tool policy allows it). */
  scope: z.enum(['domain', 'user']).optional(),
  visibleTo: McpVisibilitySchema.optional(),
  /** Absent: none. */
  auth: McpAuthInputSchema.optional(),
  enabled: z.boolean().optional(),
});
export type McpServerCreate = z.infer<typeof McpServerCreateSchema>;

/** PUT /api/v1/integration/mcp/{id}: what is absent stays; a new URL or auth discovers again. */
export const McpServerUpdateSchema = McpServerCreateSchema.omit({ scope: true }).partial();
export type McpServerUpdate = z.infer<typeof McpServerUpdateSchema>;

/** GET /api/v1/integration/mcp/{id}/connect: where to send the person, or null when connected already. */
export const McpConnectSchema = z.object({ authorizationUrl: z.string().nullable() });
export type McpConnect = z.infer<typeof McpConnectSchema>;

/** What a connection attempt's end tells the web's popup (`/integration/mcp-connected?…`). */
export const McpConnectOutcomes = ['connected', 'denied', 'failed', 'expired'] as const;

export const BuiltinToolNameSchema = z.enum(BuiltinToolNames);
export type BuiltinToolName = z.infer<typeof BuiltinToolNameSchema>;

/** Built-ins that only read: with no rule, the policy lets them run (the others ask). */
export const BUILTIN_READ_ONLY: Readonly<Record<BuiltinToolName, boolean>> = {
  web_search: true,
  fetch_page: true,
  knowledge_search: true,
  generate_image: false,
  code_interpreter: false,
  // It writes, but only the person's own memory, which they see and edit: it runs without asking
  // unless a rule says otherwise (docs/ARCHITECTURE.md#memory).
  remember: false,
};

export const BuiltinLimits = {
  /** Search results one `web_search` call returns to the model (and cites). */
  searchResults: 8,
  queryMax: 400,
  /** The most of a page `fetch_page` downloads; a longer page is read up to here. */
  pageBytes: 1_000_000,
  /** How long reading one page may take, redirects included. */
  pageTimeoutMs: 15_000,
  /** How long one search may take. */
  searchTimeoutMs: 15_000,
  /** Passages one `knowledge_search` call returns. */
  knowledgePassages: 8,
  /** Code one `code_interpreter` call may run (characters). */
  codeMax: 100_000,
  /** The chat's files a run is given (its latest), and the files it made that are kept. */
  codeFiles: 10,
} as const;

const SearchUrlSchema = httpUrlSchema({ credentials: 'Put the API key in its field, not in the URL' });

/**
 * Where `web_search` searches, as an Admin sets it: a SearXNG instance (its JSON API), or Brave or
 * Tavily with an API key (sealed, never sent back). `url` for Brave and Tavily is only for a
 * proxy in front of them; absent, their public endpoint.
 */
export const WebSearchInputSchema = z.discriminatedUnion('provider', [
  z.strictObject({ provider: z.literal('searxng'), url: SearchUrlSchema }),
  z.strictObject({
    provider: z.literal('brave'),
    /** Absent on an update: the stored key is kept. */
    apiKey: z.string().trim().min(1).max(500).optional(),
    url: SearchUrlSchema.optional(),
  }),
  z.strictObject({
    provider: z.literal('tavily'),
    apiKey: z.string().trim().min(1).max(500).optional(),
    url: SearchUrlSchema.optional(),
  }),
]);
export type WebSearchInput = z.infer<typeof WebSearchInputSchema>;

/** Web search as the API shows it: whether a key is stored, never the key. */
export const WebSearchSettingsSchema = z.object({
  provider: z.enum(['searxng', 'brave', 'tavily']),
  /** SearXNG's address, or a proxy's for Brave and Tavily (null: their public endpoint). */
  url: z.string().nullable(),
  hasApiKey: z.boolean(),
});
export type WebSearchSettings = z.infer<typeof WebSearchSettingsSchema>;

/** What happens when a santito's answer calls a tool: it runs, waits for the person, or is refused. */
export const ToolDecisionSchema = z.enum(['allow', 'ask', 'deny']);
export type ToolDecision = z.infer<typeof ToolDecisionSchema>;

export const ToolPolicyLimits = { rules: 200, defaultTools: 100 } as const;

/**
 * One rule of a domain's tool policy: `match` is a tool reference where `*` stands for any run of
 * characters (`mcp:*`, `mcp:{serverId}:delete_*`, `builtin:web_search`).
 */
export const ToolRuleSchema = z.object({
  match: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(
      /^(mcp|builtin|\*)[^\s]*$/,
      'A rule matches tools like mcp:{serverId}:{tool}, with * for any part',
    ),
  decision: ToolDecisionSchema,
});
export type ToolRule = z.infer<typeof ToolRuleSchema>;

/**
 * GET·PUT /api/v1/settings/tools?domain=: a domain's tool policy. Of the rules matching a call, a
 * `deny` wins, then `ask`, then `allow`; with none, MCP tools ask and read-only built-ins run.
 */
export const ToolPolicySchema = z.object({
  domain: z.string(),
  rules: z.array(ToolRuleSchema),
  /** Whether people may add their own MCP servers. */
  userServers: z.boolean(),
  /** Where `web_search` searches; null: the tool is not offered. */
  webSearch: WebSearchSettingsSchema.nullable(),
  /**
   * The tools of chats without a santito (the domain's default assistant), as santitos name
   * theirs: `builtin:{name}`, `mcp:{serverId}:*`, `mcp:{serverId}:{tool}` of the domain's servers.
   */
  defaultTools: z.array(z.string()),
});
export type ToolPolicy = z.infer<typeof ToolPolicySchema>;

export const ToolPolicyUpdateSchema = z.strictObject({
  rules: z.array(ToolRuleSchema).max(ToolPolicyLimits.rules),
  userServers: z.boolean(),
  /** Absent: unchanged; null: web search off. */
  webSearch: WebSearchInputSchema.nullable().optional(),
  /** Absent: unchanged. */
  defaultTools: z.array(z.string().trim().min(1).max(300)).max(ToolPolicyLimits.defaultTools).optional(),
});
export type ToolPolicyUpdate = z.infer<typeof ToolPolicyUpdateSchema>;

/** One tool a caller may give a santito, as GET /api/v1/agent/tools lists them. */
export const ToolInfoSchema = z.object({
  /** Its reference: `mcp:{serverId}:{name}`. */
  ref: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  readOnly: z.boolean(),
  /** What the domain's policy decides for it. */
  decision: ToolDecisionSchema,
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

/** A built-in tool a caller may give a santito. */
export const BuiltinToolInfoSchema = z.object({
  /** `builtin:{name}`. */
  ref: z.string(),
  name: BuiltinToolNameSchema,
  readOnly: z.boolean(),
  decision: ToolDecisionSchema,
  /**
   * Why answers are not offered it now, though a santito may list it: `not_configured`, the
   * domain has no web search set up. Null: offered (`knowledge_search` when the santito has sources).
   * `code_interpreter` is listed only when the instance has a Code Interpreter API;
   * `generate_image` is `not_configured` while no provider of the domain offers an image model.
   */
  unavailable: z.enum(['not_configured']).nullable(),
});
export type BuiltinToolInfo = z.infer<typeof BuiltinToolInfoSchema>;

/** GET /api/v1/agent/tools: the tools of the enabled servers the caller sees, and the built-ins. */
export const ToolListSchema = z.object({
  tools: z.array(ToolInfoSchema),
  builtins: z.array(BuiltinToolInfoSchema),
  /** Whether the caller may add MCP servers of their own (the domain's tool policy). */
  userServers: z.boolean(),
});
export type ToolList = z.infer<typeof ToolListSchema>;
