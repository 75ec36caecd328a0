import { z } from 'zod';
import { DepartmentSchema, DomainHintSchema, DomainSchema, UserSchema } from './accounts.ts';

/** The administrative changes the audit log records. */
export const AuditActions = [
  'user.create',
  'user.update',
  'user.delete',
  'user.invite',
  'user.sessions.revoke',
  'domain.create',
  'domain.update',
  'domain.delete',
  'domain.settings.update',
  'department.create',
  'department.update',
  'department.delete',
  'provider.create',
  'provider.update',
  'provider.delete',
  'domain.ai.update',
  'domain.model_access.update',
  'apiKey.create',
  'apiKey.revoke',
  'virtual_account.create',
  'virtual_account.update',
  'virtual_account.delete',
  'virtual_account.secret.rotate',
  'knowledge.create',
  'knowledge.update',
  'knowledge.delete',
  'knowledge.document.upload',
  'knowledge.document.delete',
  'sso.create',
  'sso.update',
  'sso.delete',
  'santito.create',
  'santito.update',
  'santito.delete',
  'budget.create',
  'budget.update',
  'budget.delete',
  'price.update',
  'mcp.create',
  'mcp.update',
  'mcp.delete',
  'tools.policy.update',
  /** A santito's answer called a tool: which, a hash of its input, the decision, time and outcome. */
  'tool.call',
  'share.create',
  'share.revoke',
  'sharing.settings.update',
  'chats.import',
  'prompt.create',
  'prompt.update',
  'prompt.delete',
  'memory.settings.update',
  'pii.settings.update',
  'retention.settings.update',
  'legal_hold.update',
  /** A job run now by hand (`POST /api/v1/jobs/{name}/run`). */
  'job.run',
  /** A retention run's counts (chats, messages, files, visitor chats, API log rows). */
  'retention.run',
  /** An Admin's export of a person or a department (a data-subject request). */
  'export.create',
] as const;
export const AuditActionSchema = z.enum(AuditActions);
export type AuditAction = z.infer<typeof AuditActionSchema>;

export const AuditTargetTypes = [
  'user',
  'domain',
  'department',
  'provider',
  'apiKey',
  'virtual_account',
  'knowledge',
  'ssoProvider',
  'santito',
  'budget',
  'price',
  'mcpServer',
  'tool',
  /** A share link of a chat (docs/ARCHITECTURE.md#share-links). */
  'share',
  /** A department's or a domain's prompt of the library (docs/ARCHITECTURE.md#prompt-library). */
  'prompt',
  /** A background job of the scheduler (docs/ARCHITECTURE.md#background-jobs), by name. */
  'job',
] as const;
export const AuditTargetTypeSchema = z.enum(AuditTargetTypes);
export type AuditTargetType = z.infer<typeof AuditTargetTypeSchema>;

/** One recorded change: who, what, before → after (secrets never included), when, from where. */
export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  /** The domain the change belongs to; its Admins read it. */
  domain: z.string().nullable(),
  actor: z.object({ id: z.string(), email: z.string() }),
  action: AuditActionSchema,
  target: z.object({ type: AuditTargetTypeSchema, id: z.string() }),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/**
 * GET /api/v1/audit (Admin: own domain; SuperAdmin: all, or `?domain=`), newest first, keyset-paged
 * with `X-Total-Count` / `X-Next-Cursor`. `from` is inclusive, `to` exclusive.
 */
export const AuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  action: AuditActionSchema.optional(),
  /** The actor's user id (lowercased email). */
  actor: z.string().min(1).max(320).optional(),
  targetType: AuditTargetTypeSchema.optional(),
  targetId: z.string().min(1).max(320).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  domain: DomainHintSchema,
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/**
 * Every field an audit entry's before/after may name: the fields of the records it tracks (users,
 * domains, departments, AI providers, santitos) and the few a change adds. The web has a text for each.
 */
export const AuditFields: readonly string[] = [
  ...new Set([
    ...Object.keys(UserSchema.shape),
    ...Object.keys(DomainSchema.shape),
    ...Object.keys(DepartmentSchema.shape),
    'kind',
    'baseUrl',
    'models',
    'enabled',
    'keySet',
    'defaultModel',
    'eulaVersion',
    'usersAskedToAccept',
    'prefix',
    'expiresAt',
    // Embeds (virtual accounts).
    'color',
    'agentId',
    'allowedOrigins',
    'welcome',
    'identity',
    'limits',
    'allowAttachments',
    'signingKeyRotated',
    'issuer',
    'clientId',
    'domains',
    'autoProvision',
    'defaultRole',
    // Santitos: their instructions are the system prompt of every chat with them.
    'description',
    'instructions',
    'model',
    'starters',
    'knowledge',
    'visibility',
    // Prompts of the library (department and domain ones).
    'title',
    'command',
    'content',
    'scope',
    'version',
    // Share links and the domain's sharing settings.
    'audience',
    'chatId',
    'publicLinks',
    // A data-subject export (`export.create`).
    'exportId',
  ]),
];
