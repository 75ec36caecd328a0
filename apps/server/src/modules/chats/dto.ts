import {
  type Attachment,
  type Chat,
  type ErrorCode,
  ErrorCodes,
  type Message,
  ProviderFailureSchema,
} from '@assistente/contracts';
import type { attachments, chats, messages } from '../../db/schema/index.ts';

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;

const attachmentUrl = (chatId: string, attachmentId: string) =>
  `/api/v1/chats/${chatId}/attachments/${attachmentId}`;

export function toChat(row: ChatRow): Chat {
  return {
    chatId: row.id,
    title: row.title,
    agentId: row.agentId,
    pinned: row.pinned,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    params: { ...row.params },
  };
}

export function toAttachment(row: AttachmentRow): Attachment {
  return {
    attachmentId: row.id,
    chatId: row.chatId,
    name: row.name,
    contentType: row.contentType,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
    url: attachmentUrl(row.chatId, row.id),
    ...(row.removedAt ? { removedAt: row.removedAt.toISOString() } : {}),
  };
}

/** `files` resolves the message's attachment ids; ids without a row (purged) are left out. */
export function toMessage(row: MessageRow, files?: ReadonlyMap<string, AttachmentRow>): Message {
  const attached = files
    ? row.attachmentIds.flatMap((id) => {
        const file = files.get(id);
        return file ? [toAttachment(file)] : [];
      })
    : [];
  return {
    messageId: row.id,
    chatId: row.chatId,
    parentId: row.parentId,
    role: row.role,
    content: row.content,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    ...(row.usage ? { usage: { ...row.usage } } : {}),
    ...(row.model ? { model: row.model } : {}),
    ...(row.error ? { error: row.error } : {}),
    ...(row.errorCode && isErrorCode(row.errorCode) ? { errorCode: row.errorCode } : {}),
    ...reasonOf(row.errorReason),
    ...(attached.length > 0 ? { attachments: attached } : {}),
    ...(row.citations?.length ? { citations: row.citations.map((c) => ({ ...c })) } : {}),
    ...(row.attachmentReadings?.length
      ? { attachmentReadings: row.attachmentReadings.map((r) => ({ ...r })) }
      : {}),
    ...(row.parts?.length ? { parts: row.parts.map((p) => ({ ...p })) } : {}),
    ...(row.usedMemory ? { usedMemory: true } : {}),
  };
}

/** A stored provider failure, when it still reads as one (its codes, like error codes, are only ever added). */
function reasonOf(stored: unknown): Pick<Message, 'errorReason'> {
  const parsed = ProviderFailureSchema.safeParse(stored);
  return parsed.success ? { errorReason: parsed.data } : {};
}

/** A stored error code the contracts still know (codes are only ever added). */
function isErrorCode(code: string): code is ErrorCode {
  return (ErrorCodes as readonly string[]).includes(code);
}
