import { z } from 'zod';
import { DomainHintSchema } from './accounts.ts';

/** Limits of API keys (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api). */
export const ApiKeyLimits = {
  nameMax: 100,
  /** Keys one user may hold at once: enough for every tool, few enough to review. */
  perUser: 50,
  /** Characters of the secret shown in lists, so a key can be recognised (`ak_` and 8 more). */
  prefixLength: 11,
} as const;

/** Every secret starts with this, so scanners and people can tell it is an Assistente API key. */
export const API_KEY_PREFIX = 'ak_';

/** A personal API key as listed: never its secret. `userId` is the owner (lowercased e-mail). */
export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  userId: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  expiresAt: z.iso.datetime().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** POST /api/v1/api_keys. `expiresAt` must be in the future; null or absent: never expires. */
export const ApiKeyCreateSchema = z.object({
  name: z.string().trim().min(1).max(ApiKeyLimits.nameMax),
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreateSchema>;

/** The answer to a creation: the only time the secret is ever shown. */
export const ApiKeyCreatedSchema = ApiKeySchema.extend({ secret: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/**
 * GET /api/v1/api_keys: the caller's own keys (`scope=own`, default), or — for Admins — every key
 * of their domain (`scope=domain`; a SuperAdmin names any domain with `domain=`). Newest first,
 * keyset-paged with `X-Total-Count` / `X-Next-Cursor`.
 */
export const ApiKeyListQuerySchema = z.object({
  scope: z.enum(['own', 'domain']).default('own'),
  domain: DomainHintSchema,
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});
export type ApiKeyListQuery = z.infer<typeof ApiKeyListQuerySchema>;

// ---- The OpenAI-compatible API (/v1), in OpenAI's own shapes ----

/** OpenAI's error body: every /v1 failure answers this. */
export const OpenAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type OpenAiError = z.infer<typeof OpenAiErrorSchema>;

export const OpenAiModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
});
export type OpenAiModel = z.infer<typeof OpenAiModelSchema>;

/** GET /v1/models: `provider:model` ids, and `santito:{id}` for the santitos the user may use. */
export const OpenAiModelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(OpenAiModelSchema),
});
export type OpenAiModelList = z.infer<typeof OpenAiModelListSchema>;

const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() });

/** Message content: a string, or text parts (other part types are refused with a clear 400). */
const ContentSchema = z.union([z.string(), z.array(TextPartSchema).max(100)]).nullable();

export const ChatCompletionMessageSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: ContentSchema,
  name: z.string().max(100).optional(),
});
export type ChatCompletionMessage = z.infer<typeof ChatCompletionMessageSchema>;

/**
 * POST /v1/chat/completions. Fields OpenAI defines and this server does not use (tools, n > 1,
 * logprobs, …) are accepted and ignored where harmless; `n` above 1 is refused.
 */
export const ChatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1).max(300),
  messages: z.array(ChatCompletionMessageSchema).min(1).max(1000),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).nullable().optional(),
  max_completion_tokens: z.number().int().min(1).max(1_000_000).nullable().optional(),
  n: z.number().int().min(1).max(1).nullable().optional(),
  user: z.string().max(300).optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

export const CompletionUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type CompletionUsage = z.infer<typeof CompletionUsageSchema>;

export const ChatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      finish_reason: z.string(),
      logprobs: z.null(),
    }),
  ),
  usage: CompletionUsageSchema,
});
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

/** One server-sent event of a streamed completion (`data: {chunk}`; the stream ends `data: [DONE]`). */
export const ChatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      finish_reason: z.string().nullable(),
      logprobs: z.null(),
    }),
  ),
  usage: CompletionUsageSchema.nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;
