import { z } from 'zod';
import {
  AttachmentIdSchema,
  AttachmentReadingSchema,
  AttachmentSchema,
  ChatIdSchema,
  ChatParamsSchema,
  ChatSchema,
  MessageIdSchema,
  MessageSchema,
  MessageUsageSchema,
  ToolCallStatusSchema,
} from './chats.ts';
import { ErrorCodeSchema } from './errors.ts';
import { CitationSchema } from './knowledge.ts';
import { PiiKindSchema } from './pii.ts';
import { ProviderFailureSchema } from './providers.ts';
import { AttachmentLimits } from './values.ts';

/**
 * The agents websocket `GET /api/v1/agents/chat/` (docs/ARCHITECTURE.md#chat-message-data-path). Every frame is one JSON text
 * message; the server validates each client frame with `ClientFrameSchema` and answers a bad one
 * with an `error` frame (the socket stays open). Frames over `WsLimits.maxFrameBytes` close it (1009).
 */
export const WsLimits = {
  /** Largest frame either side sends (1 MiB). */
  maxFrameBytes: 1024 * 1024,
  /** The `auth` frame must arrive within this many ms of the upgrade. */
  authTimeoutMs: 5_000,
  /** Longest user message. */
  maxContentChars: 100_000,
} as const;

/** Close codes the server uses. */
export const WsCloseCodes = {
  /** No valid `auth` frame in time, bad or revoked token, deactivated account. */
  unauthenticated: 4401,
  /** The account lost access (deactivated user or domain, missing user record). */
  forbidden: 4403,
  /** A frame larger than `WsLimits.maxFrameBytes` (standard "message too big"). */
  tooBig: 1009,
  /** Server shutting down (standard "going away"); reconnect with backoff. */
  goingAway: 1001,
} as const;

const RequestId = z.string().min(1).max(100);
const Content = z.string().max(WsLimits.maxContentChars);
const Attachments = z.array(AttachmentIdSchema).max(AttachmentLimits.perMessage);

// ——— client → server ———

export const AuthFrameSchema = z.strictObject({
  type: z.literal('auth'),
  /** The id token (never in the URL). */
  token: z.string().min(1).max(8192),
});

export const PingFrameSchema = z.strictObject({
  type: z.literal('ping'),
  id: z.string().max(100).optional(),
});

/**
 * Sends a user message and starts the answer. `chatId: null` creates a chat first (answered with
 * `chat.created`), so the home page's new-chat box needs no REST round trip. `parentId` is the
 * message this one follows (default: the chat's latest message). `params` are saved on the chat.
 */
export const ChatSendFrameSchema = z.strictObject({
  type: z.literal('chat.send'),
  requestId: RequestId,
  chatId: ChatIdSchema.nullable(),
  content: Content,
  agentId: z.string().min(1).max(100).nullish(),
  attachments: Attachments.optional(),
  parentId: MessageIdSchema.nullish(),
  params: ChatParamsSchema.optional(),
});

/** Stops the chat's answer in progress: it is kept with status `stopped`. */
export const ChatStopFrameSchema = z.strictObject({
  type: z.literal('chat.stop'),
  chatId: ChatIdSchema,
  requestId: RequestId.optional(),
});

/** A new answer to the same question, as a sibling of `messageId` (an assistant message); the old one is kept. */
export const ChatRegenerateFrameSchema = z.strictObject({
  type: z.literal('chat.regenerate'),
  chatId: ChatIdSchema,
  messageId: MessageIdSchema,
  requestId: RequestId.optional(),
});

/**
 * Edit-and-resend: a new user message as a sibling of `messageId` (a user message) with the new
 * content, then its answer; the old branch is kept.
 */
export const ChatEditFrameSchema = z.strictObject({
  type: z.literal('chat.edit'),
  requestId: RequestId,
  chatId: ChatIdSchema,
  messageId: MessageIdSchema,
  content: Content,
  attachments: Attachments.optional(),
});

/**
 * Resumes a chat after a reconnect: each answer still generating comes back as a
 * `message.snapshot` (its text so far), then its deltas continue; `chat.subscribed` ends the reply.
 */
export const ChatSubscribeFrameSchema = z.strictObject({
  type: z.literal('chat.subscribe'),
  chatId: ChatIdSchema,
  requestId: RequestId.optional(),
});

/**
 * Allows or denies a tool call waiting for approval; `remember: "chat"` allows that tool for the
 * rest of the chat. Any replica answers it: the paused answer is stored.
 */
export const ToolApproveFrameSchema = z.strictObject({
  type: z.literal('tool.approve'),
  chatId: ChatIdSchema,
  toolCallId: z.string().min(1).max(200),
  decision: z.enum(['allow', 'deny']),
  remember: z.literal('chat').optional(),
  requestId: RequestId.optional(),
});

export const ClientFrameSchema = z.discriminatedUnion('type', [
  AuthFrameSchema,
  PingFrameSchema,
  ChatSendFrameSchema,
  ChatStopFrameSchema,
  ChatRegenerateFrameSchema,
  ChatEditFrameSchema,
  ChatSubscribeFrameSchema,
  ToolApproveFrameSchema,
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;
export type AuthFrame = z.infer<typeof AuthFrameSchema>;
export type ChatSendFrame = z.infer<typeof ChatSendFrameSchema>;
export type ChatStopFrame = z.infer<typeof ChatStopFrameSchema>;
export type ChatRegenerateFrame = z.infer<typeof ChatRegenerateFrameSchema>;
export type ChatEditFrame = z.infer<typeof ChatEditFrameSchema>;
export type ChatSubscribeFrame = z.infer<typeof ChatSubscribeFrameSchema>;
export type ToolApproveFrame = z.infer<typeof ToolApproveFrameSchema>;

// ——— server → client ———

/** Authenticated; the socket accepts chat frames from now on. */
export const ReadyFrameSchema = z.object({
  type: z.literal('ready'),
  userId: z.string(),
  limits: z.object({
    maxFrameBytes: z.number().int(),
    maxConcurrent: z.number().int(),
    sendsPerMinute: z.number().int(),
  }),
});

export const PongFrameSchema = z.object({ type: z.literal('pong'), id: z.string().optional() });

/** A chat made by `chat.send` with `chatId: null`. */
export const ChatCreatedFrameSchema = z.object({
  type: z.literal('chat.created'),
  requestId: z.string().optional(),
  chat: ChatSchema,
});

/** The chat changed (e.g. its automatic title). */
export const ChatUpdatedFrameSchema = z.object({ type: z.literal('chat.updated'), chat: ChatSchema });

/** A message was stored: the user's (committed before this frame) or the answer starting (`streaming`). */
export const MessageCreatedFrameSchema = z.object({
  type: z.literal('message.created'),
  requestId: z.string().optional(),
  chatId: z.string(),
  message: MessageSchema,
});

export const MessageDeltaFrameSchema = z.object({
  type: z.literal('message.delta'),
  chatId: z.string(),
  messageId: z.string(),
  delta: z.string(),
});

/** An answer in progress as stored so far, for a client that (re)subscribed; deltas follow. */
export const MessageSnapshotFrameSchema = z.object({
  type: z.literal('message.snapshot'),
  chatId: z.string(),
  message: MessageSchema,
});

/**
 * Why an answer ended in `error`: its code, an English line for logs and API clients, and with a
 * provider's failure the `reason` the web says in the reader's language.
 */
export const AnswerErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  reason: ProviderFailureSchema.optional(),
});
export type AnswerError = z.infer<typeof AnswerErrorSchema>;

/** The model called a tool: it runs now, or waits for the person when `needsApproval`. */
export const ToolCallFrameSchema = z.object({
  type: z.literal('tool.call'),
  chatId: z.string(),
  messageId: z.string(),
  toolCallId: z.string(),
  tool: z.string(),
  title: z.string(),
  input: z.unknown(),
  needsApproval: z.boolean(),
  /** The answer's text before this call (a `text` part of the message). */
  textBefore: z.string(),
});

/** A tool call ended (or was denied); its output is what the model reads next. */
export const ToolResultFrameSchema = z.object({
  type: z.literal('tool.result'),
  chatId: z.string(),
  messageId: z.string(),
  toolCallId: z.string(),
  status: ToolCallStatusSchema,
  output: z.string().optional(),
  durationMs: z.number().int().min(0).optional(),
  /** Files the call made, stored as attachments of the chat. */
  files: z.array(AttachmentSchema).optional(),
});

/**
 * The answer ended: `complete`, `stopped` (chat.stop) or `error` (partial text kept), or paused
 * until a tool call is allowed or denied (`awaiting_approval`).
 */
export const MessageDoneFrameSchema = z.object({
  type: z.literal('message.done'),
  chatId: z.string(),
  messageId: z.string(),
  status: z.enum(['complete', 'stopped', 'error', 'awaiting_approval']),
  finishReason: z.string(),
  usage: MessageUsageSchema.nullable(),
  error: AnswerErrorSchema.optional(),
  /** The knowledge the answer drew on, as stored on the message. */
  citations: z.array(CitationSchema).optional(),
  /** The question's files the model read only in part, as stored on the message. */
  attachmentReadings: z.array(AttachmentReadingSchema).optional(),
  /** The person's memories were in the answer's instructions (docs/ARCHITECTURE.md#memory). */
  usedMemory: z.boolean().optional(),
});

export const ChatSubscribedFrameSchema = z.object({
  type: z.literal('chat.subscribed'),
  requestId: z.string().optional(),
  chatId: z.string(),
  /** Answers of this chat still generating (each was sent as a `message.snapshot` just before). */
  streaming: z.array(z.string()),
});

/** A refused frame or failed request: the same codes, and meanings, as the API's error body. */
export const ErrorFrameSchema = z.object({
  type: z.literal('error'),
  requestId: z.string().optional(),
  chatId: z.string().optional(),
  code: ErrorCodeSchema,
  message: z.string(),
  /** With BUDGET_EXCEEDED: when the budget that refused resets. */
  resetsAt: z.iso.datetime().optional(),
  /** With PII_BLOCKED: the kinds the domain's filter found (never the text). */
  kinds: z.array(PiiKindSchema).optional(),
});

export const ServerFrameSchema = z.discriminatedUnion('type', [
  ReadyFrameSchema,
  PongFrameSchema,
  ChatCreatedFrameSchema,
  ChatUpdatedFrameSchema,
  MessageCreatedFrameSchema,
  MessageDeltaFrameSchema,
  MessageSnapshotFrameSchema,
  MessageDoneFrameSchema,
  ToolCallFrameSchema,
  ToolResultFrameSchema,
  ChatSubscribedFrameSchema,
  ErrorFrameSchema,
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
export type ReadyFrame = z.infer<typeof ReadyFrameSchema>;
export type MessageCreatedFrame = z.infer<typeof MessageCreatedFrameSchema>;
export type MessageDeltaFrame = z.infer<typeof MessageDeltaFrameSchema>;
export type MessageSnapshotFrame = z.infer<typeof MessageSnapshotFrameSchema>;
export type MessageDoneFrame = z.infer<typeof MessageDoneFrameSchema>;
export type ToolCallFrame = z.infer<typeof ToolCallFrameSchema>;
export type ToolResultFrame = z.infer<typeof ToolResultFrameSchema>;
export type ErrorFrame = z.infer<typeof ErrorFrameSchema>;
