import { z } from 'zod';
import { ErrorCodeSchema } from './errors.ts';
import { CitationSchema } from './knowledge.ts';
import { ProviderFailureSchema } from './providers.ts';

/** Chat, message and attachment ids are UUIDs; the web app's validity check for `/chats/{chatId}`. */
export const ChatIdSchema = z.uuid();
export const MessageIdSchema = z.uuid();
export const AttachmentIdSchema = z.uuid();

const IsoDate = z.iso.datetime({ offset: true });

/** The open chat's parameters (the customParamsSidebar), kept per chat. */
export const ChatParamsSchema = z.strictObject({
  /** `provider:model`, e.g. `openai:gpt-4.1-mini`. */
  model: z.string().trim().min(1).max(200).optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  /** Extra instructions added to the system prompt. */
  instructions: z.string().max(20_000).optional(),
});
export type ChatParams = z.infer<typeof ChatParamsSchema>;

export const ChatSchema = z.object({
  chatId: z.string(),
  title: z.string(),
  /** The santito this chat talks to, or null for the domain's default assistant. */
  agentId: z.string().nullable(),
  pinned: z.boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  params: ChatParamsSchema.optional(),
});
export type Chat = z.infer<typeof ChatSchema>;

export const MessageRoleSchema = z.enum(['user', 'assistant']);
export type MessageRole = z.infer<typeof MessageRoleSchema>;
/** `awaiting_approval`: the answer paused on a tool call the person must allow or deny (up to 24 h). */
export const MessageStatusSchema = z.enum(['complete', 'streaming', 'stopped', 'error', 'awaiting_approval']);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;

export const MessageUsageSchema = z.object({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  totalTokens: z.number().int().min(0),
});
export type MessageUsage = z.infer<typeof MessageUsageSchema>;

/** Content types an upload may have (docs/ARCHITECTURE.md#uploads-and-stored-files); anything else is refused with 415. */
export const AllowedUploadTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
  'application/json',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
] as const;
export type AllowedUploadType = (typeof AllowedUploadTypes)[number];

export const AttachmentSchema = z.object({
  attachmentId: z.string(),
  chatId: z.string(),
  /** The uploaded file name: metadata only. */
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().min(0),
  createdAt: IsoDate,
  /** Download path (needs the bearer token): `/api/v1/chats/{chatId}/attachments/{attachmentId}`. */
  url: z.string(),
  /** When retention deleted its file (docs/ARCHITECTURE.md#retention): the name stays, the bytes are gone. */
  removedAt: IsoDate.optional(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** A file attached to the question that the answering model could not read in full. */
export const AttachmentReadingSchema = z.object({
  attachmentId: z.string(),
  name: z.string(),
  /** `partial`: its text was cut to what a model is given; `unread`: this model could not read it. */
  reading: z.enum(['partial', 'unread']),
});
export type AttachmentReading = z.infer<typeof AttachmentReadingSchema>;

/** Where one tool call of an answer stands (docs/ARCHITECTURE.md#the-tool-loop). */
export const ToolCallStatusSchema = z.enum(['awaiting_approval', 'running', 'done', 'denied', 'error']);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

/** A tool's output kept on the message and fed to the model: longer output is cut with a note. */
export const TOOL_OUTPUT_MAX_CHARS = 100_000;

/**
 * One step of an answer that used tools, in order: what the model wrote, or a tool it called.
 * `tool` is the tool's reference (`mcp:{serverId}:{name}`, `builtin:{name}`); `title` what to show.
 */
export const MessagePartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('tool'),
    toolCallId: z.string(),
    tool: z.string(),
    title: z.string(),
    input: z.unknown(),
    status: ToolCallStatusSchema,
    output: z.string().optional(),
    durationMs: z.number().int().min(0).optional(),
    /** Files the call made (a chart, a table), kept as attachments of the chat. */
    files: z.array(AttachmentSchema).optional(),
  }),
]);
export type MessagePart = z.infer<typeof MessagePartSchema>;
export type ToolPart = Extract<MessagePart, { type: 'tool' }>;

export const MessageSchema = z.object({
  messageId: z.string(),
  chatId: z.string(),
  /** The message this one answers or follows; edits and regenerations are siblings under one parent. */
  parentId: z.string().nullable(),
  role: MessageRoleSchema,
  content: z.string(),
  status: MessageStatusSchema,
  createdAt: IsoDate,
  usage: MessageUsageSchema.optional(),
  model: z.string().optional(),
  /** Why an answer ended in `error` (a safe, user-facing text, in English). */
  error: z.string().optional(),
  /** The code of that error, which the web shows in the reader's language. */
  errorCode: ErrorCodeSchema.optional(),
  /** With a provider's failure: what kind it was, said in words by the web (never `error`'s English). */
  errorReason: ProviderFailureSchema.optional(),
  attachments: z.array(AttachmentSchema).optional(),
  /** The knowledge an answer drew on (docs/ARCHITECTURE.md#knowledge), numbered in order: `[1]` is the first. */
  citations: z.array(CitationSchema).optional(),
  /** On an answer: the question's files its model read only in part, or not at all. */
  attachmentReadings: z.array(AttachmentReadingSchema).optional(),
  /**
   * On an answer that called tools: its steps in order. The text parts are `content` cut at each
   * call; text streamed after the last part is the rest of `content`.
   */
  parts: z.array(MessagePartSchema).optional(),
  /** On an answer: the person's memories were in its instructions (docs/ARCHITECTURE.md#memory). */
  usedMemory: z.boolean().optional(),
});
export type Message = z.infer<typeof MessageSchema>;

const Title = z.string().trim().max(200);

/** POST /api/v1/chats */
export const ChatCreateSchema = z.strictObject({
  title: Title.optional(),
  agentId: z.string().min(1).max(100).nullable().optional(),
});
export type ChatCreate = z.infer<typeof ChatCreateSchema>;

/** PUT /api/v1/chats/{chatId}: only the fields given change; `params: null` clears them. */
export const ChatUpdateSchema = z
  .strictObject({
    title: Title.optional(),
    pinned: z.boolean().optional(),
    params: ChatParamsSchema.nullable().optional(),
  })
  .refine((b) => b.title !== undefined || b.pinned !== undefined || b.params !== undefined, {
    message: 'Nothing to update: give title, pinned or params',
  });
export type ChatUpdate = z.infer<typeof ChatUpdateSchema>;

/**
 * GET /api/v1/chats. Not strict: the web client adds `domain`/`department` hints to every call
 * (older clients also `user`/`email`). `q` searches titles and message contents (words, prefix match, case and accents ignored).
 * A chat with neither a title nor a message (made for a new message's files) is listed once it has one.
 */
export const ChatListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  q: z.string().trim().max(200).optional(),
});
export type ChatListQuery = z.infer<typeof ChatListQuerySchema>;

/**
 * GET /api/v1/chats/{chatId}/messages: the newest `limit` messages older than `before`, answered
 * oldest → newest; `X-Next-Cursor` is the `before` of the previous (older) page.
 */
export const MessageListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: MessageIdSchema.optional(),
});
export type MessageListQuery = z.infer<typeof MessageListQuerySchema>;

export const ChatExportFormatSchema = z.enum(['md', 'json']);
export type ChatExportFormat = z.infer<typeof ChatExportFormatSchema>;
/** Whether this runtime knows `zone` as an IANA time zone (`America/Sao_Paulo`). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name this runtime knows. */
export const TimeZoneSchema = z.string().max(64).refine(isTimeZone, 'timeZone must be an IANA time zone');

/**
 * GET /api/v1/chats/{chatId}/export. `leaf`: the last message of the branch on the user's screen
 * (404 unless a message of this chat); without it, the branch of the newest message. `locale`: the
 * screen's language, for the Markdown's labels (then the saved language, then Accept-Language).
 */
export const ChatExportQuerySchema = z.object({
  format: ChatExportFormatSchema.default('md'),
  leaf: MessageIdSchema.optional(),
  locale: z.string().max(35).optional(),
  /** The reader's IANA time zone: the Markdown's dates are written in it (UTC without one). */
  timeZone: TimeZoneSchema.optional(),
});
export type ChatExportQuery = z.infer<typeof ChatExportQuerySchema>;

/** GET /api/v1/chats/{chatId}/export?format=json: the chat with every message (all branches). */
export const ChatExportSchema = z.object({
  version: z.literal(1),
  exportedAt: IsoDate,
  chat: ChatSchema,
  /** The last message of the branch exported as Markdown (the one on screen); absent when empty. */
  leafId: z.string().optional(),
  messages: z.array(MessageSchema),
});
export type ChatExport = z.infer<typeof ChatExportSchema>;
