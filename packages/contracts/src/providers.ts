import { z } from 'zod';
import { RoleSchema } from './accounts.ts';
import { Roles } from './roles.ts';
import { httpUrlSchema } from './urls.ts';
import { AddressProblems } from './values.ts';

/** Model providers reached through the AI SDK (docs/ARCHITECTURE.md#model-providers). */
export const ProviderKinds = ['openai', 'anthropic', 'google', 'ollama', 'openai-compatible'] as const;
export const ProviderKindSchema = z.enum(ProviderKinds);
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

/** Kinds that have no default public endpoint, so a base URL is required. */
export const ProviderKindsNeedingBaseUrl: readonly ProviderKind[] = ['ollama', 'openai-compatible'];
/** Kinds that cannot work without an API key. */
export const ProviderKindsNeedingApiKey: readonly ProviderKind[] = ['openai', 'anthropic', 'google'];

/**
 * A model id is `provider:model`: the provider is a domain configuration's id, a provider kind
 * (the first enabled configuration of that kind in the domain, else the instance-wide one), or an
 * instance-wide provider name (`openai`, `anthropic`, `ollama`), e.g. `openai:gpt-4.1-mini`.
 */
export const ModelIdSchema = z
  .string()
  .trim()
  .max(300)
  .regex(/^[A-Za-z0-9_-]+:\S.*$/, 'A model id looks like provider:model');
export type ModelId = z.infer<typeof ModelIdSchema>;

const BaseUrlSchema = httpUrlSchema({ credentials: 'Put credentials in the API key field, not in the URL' });

const ModelNamesSchema = z.array(z.string().trim().min(1).max(200)).max(200);

/** A provider configuration as the API shows it: the API key is never sent back, only a hint. */
export const ProviderConfigSchema = z.object({
  id: z.string(),
  domain: z.string(),
  kind: ProviderKindSchema,
  label: z.string(),
  baseUrl: z.string().nullable(),
  hasApiKey: z.boolean(),
  /** The key's last 4 characters at most, e.g. "…a1b2"; null without a key. */
  apiKeyHint: z.string().nullable(),
  /** The Admin's curated model list; empty means "whatever the provider lists". */
  models: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

/**
 * `?domain=` of the settings endpoints: the domain a SuperAdmin acts on. The web also adds it to
 * every call as a logging hint, so anything but a non-empty string is ignored, never refused.
 */
export const ProviderSettingsQuerySchema = z.object({
  domain: z
    .string()
    .describe('The domain a SuperAdmin acts on; anyone else may name only their own')
    .optional()
    .catch(undefined)
    .transform((d) => d || undefined),
});
export type ProviderSettingsQuery = z.infer<typeof ProviderSettingsQuerySchema>;

/** POST /api/v1/settings/providers */
export const ProviderConfigCreateSchema = z
  .strictObject({
    kind: ProviderKindSchema,
    label: z.string().trim().min(1).max(120),
    baseUrl: BaseUrlSchema.nullish(),
    apiKey: z.string().trim().max(4096).nullish(),
    models: ModelNamesSchema.optional(),
    enabled: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (ProviderKindsNeedingBaseUrl.includes(v.kind) && !v.baseUrl) {
      ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: `A base URL is required for ${v.kind}` });
    }
    if (ProviderKindsNeedingApiKey.includes(v.kind) && !v.apiKey) {
      ctx.addIssue({ code: 'custom', path: ['apiKey'], message: `An API key is required for ${v.kind}` });
    }
  });
export type ProviderConfigCreate = z.infer<typeof ProviderConfigCreateSchema>;

/**
 * PUT /api/v1/settings/providers/{id}: every field optional. `apiKey` empty or absent keeps the
 * stored key; `null` removes it.
 */
export const ProviderConfigUpdateSchema = z.strictObject({
  label: z.string().trim().min(1).max(120).optional(),
  baseUrl: BaseUrlSchema.nullish(),
  apiKey: z.string().trim().max(4096).nullish(),
  models: ModelNamesSchema.optional(),
  enabled: z.boolean().optional(),
});
export type ProviderConfigUpdate = z.infer<typeof ProviderConfigUpdateSchema>;

export const AddressProblemSchema = z.enum(AddressProblems);
export type AddressProblem = z.infer<typeof AddressProblemSchema>;

/**
 * A `VALIDATION_FAILED` detail for an address the server refused (`code: 'url_blocked'`): what
 * happened, the host, and the private address it resolved to, for the web to say in words.
 */
export const UrlBlockedDetailSchema = z.object({
  path: z.string(),
  message: z.string(),
  code: z.literal('url_blocked'),
  reason: AddressProblemSchema,
  host: z.string().optional(),
  address: z.string().optional(),
});
export type UrlBlockedDetail = z.infer<typeof UrlBlockedDetailSchema>;

/**
 * Why a call to a provider failed, as a code the web translates: the provider refused the key,
 * does not know the model, limits requests, failed (5xx) or refused the request (other 4xx), broke
 * off mid-answer, could not be reached (`address` says how), did not answer in time, or else.
 */
export const ProviderFailureSchema = z.object({
  code: z.enum([
    'key_refused',
    'not_found',
    'rate_limited',
    'provider_failed',
    'request_refused',
    'broken_off',
    'unreachable',
    'timeout',
    'failed',
  ]),
  /** The provider's HTTP status, when it answered with one. */
  status: z.number().int().optional(),
  /** With `unreachable`: what happened on the way. */
  address: AddressProblemSchema.optional(),
  host: z.string().optional(),
});
export type ProviderFailure = z.infer<typeof ProviderFailureSchema>;

/** POST /api/v1/settings/providers/{id}/test */
export const ProviderTestResultSchema = z.object({
  ok: z.boolean(),
  models: z.array(z.string()),
  /** Why it failed, in English for API clients and logs; the web says `failure` in words. */
  message: z.string().optional(),
  failure: ProviderFailureSchema.optional(),
});
export type ProviderTestResult = z.infer<typeof ProviderTestResultSchema>;

export const ModelInfoSchema = z.object({
  /** `provider:model`, what chat params and the default model hold. */
  id: z.string(),
  /** The model's own name at the provider. */
  name: z.string(),
  provider: z.string(),
  providerLabel: z.string(),
  kind: ProviderKindSchema,
  /** `domain`: configured by the domain's Admins; `instance`: by the server's environment. */
  source: z.enum(['domain', 'instance']),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

/** GET /api/v1/models */
export const ModelListSchema = z.object({
  models: z.array(ModelInfoSchema),
  defaultModel: z.string().nullable(),
});
export type ModelList = z.infer<typeof ModelListSchema>;

/** GET /api/v1/settings/ai */
export const AiSettingsSchema = z.object({
  domain: z.string(),
  /** The domain's own choice; null falls back to the instance default. */
  defaultModel: z.string().nullable(),
  /** What chats use when they name no model: the domain's choice, else DEFAULT_MODEL, else null. */
  effectiveDefaultModel: z.string().nullable(),
});
export type AiSettings = z.infer<typeof AiSettingsSchema>;

/** PUT /api/v1/settings/ai */
export const AiSettingsUpdateSchema = z.strictObject({
  defaultModel: ModelIdSchema.nullable(),
});
export type AiSettingsUpdate = z.infer<typeof AiSettingsUpdateSchema>;

/**
 * A model access rule's model: `provider:model`, or `provider:*` for every model of a provider
 * (docs/ARCHITECTURE.md#model-access). The provider is what model ids name (a configuration's id,
 * a provider kind, an instance provider's name).
 */
export const ModelPatternSchema = z
  .string()
  .trim()
  .max(300)
  .regex(/^[A-Za-z0-9_-]+:\S+$/, 'A model looks like provider:model or provider:*');

/** One rule: the model it matches is open only to the roles and the departments it names. */
export const ModelAccessRuleSchema = z.strictObject({
  model: ModelPatternSchema,
  roles: z.array(RoleSchema).max(Roles.length).optional(),
  /** Department ids of the rule's domain. */
  departments: z.array(z.string().trim().min(1).max(100)).max(500).optional(),
});
export type ModelAccessRule = z.infer<typeof ModelAccessRuleSchema>;

/** GET·PUT /api/v1/settings/model_access: a domain's model access rules. */
export const ModelAccessSchema = z.strictObject({
  rules: z.array(ModelAccessRuleSchema).max(200),
  /** What a model no rule matches follows. */
  default: z.enum(['allow', 'deny']),
});
export type ModelAccess = z.infer<typeof ModelAccessSchema>;
