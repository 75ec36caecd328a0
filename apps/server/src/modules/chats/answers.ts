import { randomUUID } from 'node:crypto';
import type {
  AnswerError,
  AttachmentReading,
  Chat,
  Citation,
  Message,
  MessagePart,
  MessageStatus,
  MessageUsage,
} from '@assistente/contracts';
import type { StreamingPiece } from './answers-store.ts';
import { toChat, toMessage } from './dto.ts';
import { chatNotFound, messageNotFound } from './errors.ts';
import type { PreparedUserMessage } from './messages.ts';
import { type NewMessage, toRow } from './rows.ts';
import { type ChatsState, tick } from './state.ts';
import type { ExchangeChat } from './store.ts';

/*
 * The answers' lifecycle, for the agents module's generation worker
 * (docs/ARCHITECTURE.md#persistence-crashes-and-stop): it writes chats' tables only through these.
 * Ids come from caller-scoped calls before, or from the sweep itself.
 */

/** An empty answer under `parentId`, status 'streaming', with its model. */
const newAnswer = (chatId: string, parentId: string | null, model: string | null): NewMessage => ({
  id: randomUUID(),
  chatId,
  parentId,
  role: 'assistant',
  content: '',
  status: 'streaming',
  model,
  createdAt: tick(),
});

/**
 * Stores a prepared message together with its answer, empty and `streaming`, and what they do
 * to the chat (`chat`: create it, or touch it with new params or a first title), in one
 * statement: the question is committed no later than its answer exists, in one round trip.
 */
export async function commitExchange(
  s: ChatsState,
  prepared: PreparedUserMessage,
  model: string | null,
  chat: ExchangeChat,
): Promise<{ chat: Chat; question: Message; answer: Message }> {
  const answer = newAnswer(prepared.row.chatId, prepared.row.id, model);
  const stored = await s.store.insertExchange(chat, [prepared.row, answer]);
  if (!stored) throw chatNotFound();
  return {
    chat: toChat(stored),
    question: prepared.message,
    answer: toMessage(toRow(answer)),
  };
}

/** Starts an assistant answer under `parentId`: empty, status 'streaming', committed. */
export async function createAssistantMessage(
  s: ChatsState,
  chatId: string,
  parentId: string | null,
  model: string | null,
): Promise<Message> {
  const row = newAnswer(chatId, parentId, model);
  if (!(await s.store.insertExchange({ kind: 'touch', id: chatId }, [row]))) throw chatNotFound();
  return toMessage(toRow(row));
}

/**
 * Ends an answer: final status, optionally the final text, token usage and a user-facing error.
 * Only the first end counts; later calls answer the message as it was ended.
 */
export async function finishAssistantMessage(
  s: ChatsState,
  messageId: string,
  end: {
    status: Exclude<MessageStatus, 'streaming'>;
    content?: string;
    usage?: MessageUsage;
    error?: AnswerError;
    model?: string;
    citations?: Citation[];
    attachmentReadings?: AttachmentReading[];
    /** The answer's steps, when it called tools. */
    parts?: MessagePart[];
    /** The person's memories were in its instructions (docs/ARCHITECTURE.md#memory). */
    usedMemory?: boolean;
  },
): Promise<Message> {
  const row = await s.store.streamFinish(
    messageId,
    {
      status: end.status,
      ...(end.content !== undefined ? { content: end.content } : {}),
      ...(end.usage !== undefined ? { usage: end.usage } : {}),
      ...(end.error !== undefined
        ? { error: end.error.message, errorCode: end.error.code, errorReason: end.error.reason ?? null }
        : {}),
      ...(end.model !== undefined ? { model: end.model } : {}),
      ...(end.citations?.length ? { citations: end.citations } : {}),
      ...(end.attachmentReadings?.length ? { attachmentReadings: end.attachmentReadings } : {}),
      ...(end.parts?.length ? { parts: end.parts } : {}),
      ...(end.usedMemory ? { usedMemory: true } : {}),
    },
    tick(),
  );
  if (!row) throw messageNotFound();
  return toMessage(row);
}

/**
 * The flush of every answer streaming on this process, in one statement (the hot path: one round
 * trip per flush, whatever the number of answers).
 */
export function saveStreaming(s: ChatsState, batch: readonly StreamingPiece[]): Promise<void> {
  return s.answers.saveStreaming(batch);
}

/** Answers of a chat still marked as generating. */
export function streamingAnswerIds(s: ChatsState, chatId: string): Promise<string[]> {
  return s.answers.streamingIds(chatId);
}

/**
 * Ends answers whose writer died (no heartbeat since `before`) with `error`, their pieces folded
 * into their text; answers them with their owners, to tell their sockets.
 */
export function sweepStaleAnswers(s: ChatsState, before: Date, error: string) {
  return s.answers.sweepStale(before, error);
}

/** Takes a paused answer up again; undefined when it is not paused (any more). */
export async function resumeAnswer(
  s: ChatsState,
  messageId: string,
  parts: MessagePart[],
): Promise<Message | undefined> {
  const row = await s.answers.resume(messageId, parts);
  return row ? toMessage(row) : undefined;
}

/** A chat's paused answers; the chat id comes from a caller-scoped read before. */
export async function awaitingInChat(s: ChatsState, chatId: string): Promise<Message[]> {
  return (await s.answers.awaitingInChat(chatId)).map((r) => toMessage(r));
}

/** Keeps a paused answer's decisions so far; false when it is not paused any more. */
export function setAwaitingParts(s: ChatsState, messageId: string, parts: MessagePart[]): Promise<boolean> {
  return s.answers.setAwaitingParts(messageId, parts);
}

/** Paused answers older than `before`, for the sweep that denies them. */
export function awaitingAnswers(s: ChatsState, before: Date) {
  return s.answers.awaitingSince(before);
}

/** Ends a paused answer (its approval expired) with its parts as decided; false if it was not paused. */
export function endAwaitingAnswer(
  s: ChatsState,
  messageId: string,
  parts: MessagePart[],
  error: AnswerError,
): Promise<boolean> {
  return s.answers.endAwaiting(messageId, parts, error);
}

/** Tools allowed for the rest of a chat; ids come from caller-scoped reads before. */
export function allowedTools(s: ChatsState, chatId: string): Promise<string[]> {
  return s.answers.allowedTools(chatId);
}

export function allowToolInChat(s: ChatsState, chatId: string, ref: string): Promise<void> {
  return s.answers.allowTool(chatId, ref);
}
