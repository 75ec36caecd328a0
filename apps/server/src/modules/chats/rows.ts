import type { ChatParams, MessageStatus } from '@assistente/contracts';
import type { ChatRow, MessageRow } from './dto.ts';

/** A message about to be stored: what the chats service hands the store. */
export interface NewMessage {
  id: string;
  chatId: string;
  parentId: string | null;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  model?: string | null;
  attachmentIds?: string[];
  createdAt: Date;
}

/** The row a NewMessage becomes, every column its insert leaves to the default included. */
export function toRow(m: NewMessage): MessageRow {
  return {
    ...toInsert(m),
    usage: null,
    error: null,
    errorCode: null,
    errorReason: null,
    citations: null,
    attachmentReadings: null,
    parts: null,
    usedMemory: false,
  };
}

function toInsert(m: NewMessage) {
  return {
    id: m.id,
    chatId: m.chatId,
    parentId: m.parentId,
    role: m.role,
    content: m.content,
    status: m.status,
    model: m.model ?? null,
    attachmentIds: m.attachmentIds ?? [],
    createdAt: m.createdAt,
    updatedAt: m.createdAt,
  };
}

/** A chats row as `execute` answers it (column names, not field names). */
export function chatRowOf(r: Record<string, unknown>): ChatRow {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    domainId: String(r.domain_id),
    agentId: r.agent_id == null ? null : String(r.agent_id),
    title: String(r.title),
    pinned: r.pinned === true,
    params: (r.params ?? {}) as ChatParams,
    allowedTools: (r.allowed_tools ?? []) as string[],
    deletedAt: r.deleted_at == null ? null : new Date(r.deleted_at as string | Date),
    importSource: r.import_source == null ? null : String(r.import_source),
    createdAt: new Date(r.created_at as string | Date),
    updatedAt: new Date(r.updated_at as string | Date),
  };
}
