import { randomUUID } from 'node:crypto';
import type { Chat, ChatCreate, ChatListQuery, ChatUpdate } from '@assistente/contracts';
import type { Page } from '../../lib/paging.ts';
import { santitoNotAvailable } from '../santitos/index.ts';
import { toChat } from './dto.ts';
import { chatNotFound } from './errors.ts';
import { authorizeUpdate, type ChatCaller, newChatAgent } from './policy.ts';
import { type ChatsState, isId, ownChat, tick } from './state.ts';
import { CHAT_CURSOR_TAG, hasSearchableWords } from './store.ts';

/** How long after a delete the chat can still be restored (the sidebar's undo); then it is purged. */
export const CHAT_RESTORE_WINDOW_MS = 30_000;

/** The caller's own live chat, or 404 NOT_FOUND "Chat not found". */
export async function getChatForCaller(s: ChatsState, caller: ChatCaller, chatId: string): Promise<Chat> {
  return toChat(await ownChat(s, caller, chatId));
}

/**
 * Creates a chat for the caller; its santito (`newChatAgent`: a visitor's is their embed's) must
 * be one they may use (else 400).
 */
export async function createChat(s: ChatsState, caller: ChatCaller, body: ChatCreate): Promise<Chat> {
  const agentId = newChatAgent(caller, body.agentId);
  if (agentId !== null && !(await s.ctx.services.santitos.findUsable(caller, agentId))) {
    throw santitoNotAvailable();
  }
  const row = await s.store.insertChat(caller, {
    id: randomUUID(),
    title: body.title ?? '',
    agentId,
    params: {},
    now: tick(),
  });
  return toChat(row);
}

export async function listChats(
  s: ChatsState,
  caller: ChatCaller,
  query: ChatListQuery,
): Promise<Page<Chat>> {
  const after = s.cursors.parse(CHAT_CURSOR_TAG, query.cursor, 3);
  const q = query.q?.trim();
  if (q && !hasSearchableWords(q)) return { items: [], total: 0 };
  const page = await s.store.listChats(caller, {
    limit: query.limit,
    ...(after ? { after } : {}),
    ...(q ? { q } : {}),
  });
  return s.cursors.page(CHAT_CURSOR_TAG, page, toChat);
}

export async function updateChat(
  s: ChatsState,
  caller: ChatCaller,
  chatId: string,
  body: ChatUpdate,
): Promise<Chat> {
  authorizeUpdate(caller, body);
  await ownChat(s, caller, chatId);
  const row = await s.store.updateChat(caller, chatId, {
    ...(body.title !== undefined ? { title: body.title } : {}),
    ...(body.pinned !== undefined ? { pinned: body.pinned } : {}),
    ...(body.params !== undefined ? { params: body.params ?? {} } : {}),
  });
  if (!row) throw chatNotFound();
  return toChat(row);
}

/** Soft delete: gone from every read at once, restorable for CHAT_RESTORE_WINDOW_MS, then purged. */
export async function deleteChat(s: ChatsState, caller: ChatCaller, chatId: string): Promise<void> {
  await ownChat(s, caller, chatId);
  if (!(await s.store.softDeleteChat(caller, chatId, new Date()))) throw chatNotFound();
}

/** Undoes a delete within the window; afterwards the chat is as gone as one never made (404). */
export async function restoreChat(s: ChatsState, caller: ChatCaller, chatId: string): Promise<Chat> {
  if (!isId(chatId)) throw chatNotFound();
  const row = await s.store.restoreChat(caller, chatId, new Date(Date.now() - CHAT_RESTORE_WINDOW_MS));
  if (!row) throw chatNotFound();
  return toChat(row);
}
