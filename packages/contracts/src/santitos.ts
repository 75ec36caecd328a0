import { z } from 'zod';

/** A santito is visible to its whole domain, or to one department of it (plus its author and Admins). */
export const SantitoVisibilitySchema = z.enum(['domain', 'department']);
export type SantitoVisibility = z.infer<typeof SantitoVisibilitySchema>;

/** A knowledge source, kept for later retrieval (e.g. a Confluence space or an uploaded file). */
export const SantitoKnowledgeSchema = z.strictObject({
  kind: z.string().trim().min(1).max(40),
  ref: z.string().trim().min(1).max(2000),
  title: z.string().trim().max(200),
});
export type SantitoKnowledge = z.infer<typeof SantitoKnowledgeSchema>;

export const SantitoLimits = {
  starters: 6,
  knowledge: 50,
  avatarMaxBytes: 1024 * 1024,
  /** Tool references one santito may hold (a server's `*` counts as one). */
  tools: 50,
  /** Model steps one answer may take (each tool round is one more); DESIGN's default is 8. */
  maxSteps: 20,
  defaultMaxSteps: 8,
} as const;

/** A tool a santito may use: `mcp:{serverId}:{tool}`, every tool of a server (`mcp:{serverId}:*`), `builtin:{name}`. */
export const ToolRefSchema = z
  .string()
  .trim()
  .max(200)
  .regex(
    /^(mcp:[a-z0-9]+:(\*|[^\s:]+)|builtin:[a-z_]+)$/,
    'A tool looks like mcp:{serverId}:{tool} or builtin:{name}',
  );

/** Content types an uploaded avatar may have. */
export const AvatarTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** One emoji (possibly a ZWJ sequence or with modifiers), nothing else. */
export const EmojiSchema = z
  .string()
  .max(32)
  .regex(
    /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\u200D|\uFE0F|\u20E3|[\u{1F3FB}-\u{1F3FF}#*0-9])+$/u,
    'avatar must be an emoji',
  )
  .refine((s) => /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(s), 'avatar must be an emoji');

export const SantitoSchema = z.object({
  _id: z.string(),
  domain: z.string(),
  name: z.string(),
  description: z.string(),
  /** An emoji, or null (then `avatarUrl` may hold an uploaded image). */
  avatar: z.string().nullable(),
  /** Path of the uploaded image (needs the bearer token): `/api/v1/agent/{id}/avatar`. */
  avatarUrl: z.string().nullable(),
  instructions: z.string(),
  /** `provider:model`, or null for the domain's default model. */
  model: z.string().nullable(),
  starters: z.array(z.string()),
  knowledge: z.array(SantitoKnowledgeSchema),
  /** The tools its answers may call (docs/ARCHITECTURE.md#the-tool-loop). */
  tools: z.array(z.string()),
  /** Model steps one answer may take. */
  maxSteps: z.number().int(),
  visibility: SantitoVisibilitySchema,
  departmentId: z.string().nullable(),
  /** The author's user id (their lowercased email). */
  authorId: z.string(),
  /** Whether the caller may edit or delete it (author or Admin of the domain). */
  canEdit: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type Santito = z.infer<typeof SantitoSchema>;

const Starter = z.string().trim().min(1).max(300);

const SantitoFields = {
  name: z.string().trim().min(1).max(80),
  description: z.string().trim().max(500),
  avatar: EmojiSchema.nullable(),
  instructions: z.string().max(20_000),
  model: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]+:.+$/, 'model must look like provider:model')
    .max(200)
    .nullable(),
  starters: z.array(Starter).max(SantitoLimits.starters),
  knowledge: z.array(SantitoKnowledgeSchema).max(SantitoLimits.knowledge),
  tools: z.array(ToolRefSchema).max(SantitoLimits.tools),
  maxSteps: z.number().int().min(1).max(SantitoLimits.maxSteps),
  visibility: SantitoVisibilitySchema,
  departmentId: z.string().min(1).max(100).nullable(),
};

const departmentRule = (b: { visibility?: SantitoVisibility; departmentId?: string | null }) =>
  b.visibility !== 'department' || (typeof b.departmentId === 'string' && b.departmentId !== '');
const departmentRuleIssue = {
  message: 'departmentId is required when visibility is department',
  path: ['departmentId'],
};

/** POST /api/v1/agent */
export const SantitoCreateSchema = z
  .strictObject({
    name: SantitoFields.name,
    description: SantitoFields.description.default(''),
    avatar: SantitoFields.avatar.optional(),
    instructions: SantitoFields.instructions.default(''),
    model: SantitoFields.model.optional(),
    starters: SantitoFields.starters.default([]),
    knowledge: SantitoFields.knowledge.default([]),
    tools: SantitoFields.tools.default([]),
    maxSteps: SantitoFields.maxSteps.default(SantitoLimits.defaultMaxSteps),
    visibility: SantitoFields.visibility.default('domain'),
    departmentId: SantitoFields.departmentId.optional(),
  })
  .refine(departmentRule, departmentRuleIssue);
export type SantitoCreate = z.input<typeof SantitoCreateSchema>;

/** PUT /api/v1/agent/{id}: only the fields given change. */
export const SantitoUpdateSchema = z
  .strictObject({
    name: SantitoFields.name.optional(),
    description: SantitoFields.description.optional(),
    avatar: SantitoFields.avatar.optional(),
    instructions: SantitoFields.instructions.optional(),
    model: SantitoFields.model.optional(),
    starters: SantitoFields.starters.optional(),
    knowledge: SantitoFields.knowledge.optional(),
    tools: SantitoFields.tools.optional(),
    maxSteps: SantitoFields.maxSteps.optional(),
    visibility: SantitoFields.visibility.optional(),
    departmentId: SantitoFields.departmentId.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Nothing to update' });
export type SantitoUpdate = z.infer<typeof SantitoUpdateSchema>;

/** GET /api/v1/agent: not strict (the web client adds logging hints to every call). */
export const SantitoListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  q: z.string().trim().max(200).optional(),
});
export type SantitoListQuery = z.infer<typeof SantitoListQuerySchema>;
