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

/** A function the model asked for, as OpenAI writes it: `arguments` is a JSON text. */
export const ChatCompletionToolCallSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1).max(64), arguments: z.string().max(1_000_000) }),
});
export type ChatCompletionToolCall = z.infer<typeof ChatCompletionToolCallSchema>;

/**
 * One message. An assistant message may carry the `tool_calls` the model made (its content then
 * often null); a `tool` message answers one of them by `tool_call_id`.
 */
export const ChatCompletionMessageSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: ContentSchema,
  name: z.string().max(100).optional(),
  tool_calls: z.array(ChatCompletionToolCallSchema).max(128).optional(),
  tool_call_id: z.string().min(1).max(200).optional(),
});
export type ChatCompletionMessage = z.infer<typeof ChatCompletionMessageSchema>;

/** Limits of client tools on /v1, as OpenAI's: 128 functions, names of letters, digits, `_` and `-`. */
export const ChatToolLimits = { perRequest: 128, nameMax: 64, schemaMaxChars: 100_000 } as const;

/** A function the client offers the model (`parameters`: a JSON Schema object). */
export const ChatCompletionToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'A function name is 1–64 letters, digits, underscores or dashes'),
    description: z.string().max(10_000).optional(),
    parameters: z
      .record(z.string(), z.unknown())
      .refine((p) => JSON.stringify(p).length <= ChatToolLimits.schemaMaxChars, 'The schema is too large')
      .optional(),
    strict: z.boolean().nullable().optional(),
  }),
});
export type ChatCompletionTool = z.infer<typeof ChatCompletionToolSchema>;

/** `auto` (the default with tools), `none`, `required`, or one named function. */
export const ChatCompletionToolChoiceSchema = z.union([
  z.enum(['auto', 'none', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1).max(64) }) }),
]);
export type ChatCompletionToolChoice = z.infer<typeof ChatCompletionToolChoiceSchema>;

/**
 * POST /v1/chat/completions. Client tools pass through with OpenAI's semantics: the model's
 * `tool_calls` come back to the caller, who runs them and sends `role: "tool"` messages. Fields
 * OpenAI defines and this server does not use (logprobs, …) are accepted and ignored where
 * harmless; `n` above 1 is refused.
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
  tools: z.array(ChatCompletionToolSchema).max(ChatToolLimits.perRequest).optional(),
  tool_choice: ChatCompletionToolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().optional(),
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
      message: z.object({
        role: z.literal('assistant'),
        /** Null when the model only called tools, as OpenAI answers. */
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z.array(ChatCompletionToolCallSchema).optional(),
      }),
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
      delta: z.object({
        role: z.literal('assistant').optional(),
        content: z.string().optional(),
        /** Each tool call whole, in one chunk (OpenAI's clients join fragments by `index` either way). */
        tool_calls: z.array(ChatCompletionToolCallSchema.extend({ index: z.number().int() })).optional(),
      }),
      finish_reason: z.string().nullable(),
      logprobs: z.null(),
    }),
  ),
  usage: CompletionUsageSchema.nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;
