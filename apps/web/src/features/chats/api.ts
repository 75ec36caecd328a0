import {
  type Chat,
  type ChatCreate,
  type ChatExportQuery,
  ChatSchema,
  type ChatUpdate,
  type Message,
  MessageSchema,
} from '@assistente/contracts';
import type { HttpClient } from '../../lib/http/client.ts';
import { getPage, type Page } from '../../lib/http/paging.ts';
import { currentLanguage } from '../../lib/i18n/index.ts';
import { shownLeafId } from './hooks/useAgents.ts';

/** Chats shown per page of the sidebar. */
const CHATS_PAGE_SIZE = 50;
/** Messages loaded per page, newest first (older pages load on scroll up). */
const MESSAGES_PAGE_SIZE = 100;

const chatPath = (chatId: string) => `/api/v1/chats/${encodeURIComponent(chatId)}`;

/** The chats manager calls (docs/ARCHITECTURE.md#chat-message-data-path). */
export function createChatsApi(http: HttpClient) {
  return {
    listChats: (query: { cursor?: string | null; q?: string; limit?: number }): Promise<Page<Chat>> =>
      getPage(http, '/api/v1/chats', ChatSchema, {
        limit: query.limit ?? CHATS_PAGE_SIZE,
        cursor: query.cursor ?? undefined,
        q: query.q?.trim() || undefined,
      }),
    getChat: (chatId: string): Promise<Chat> => http.get(chatPath(chatId), { schema: ChatSchema }),
    createChat: (body: ChatCreate): Promise<Chat> => http.post('/api/v1/chats', { body, schema: ChatSchema }),
    updateChat: (chatId: string, body: ChatUpdate): Promise<Chat> =>
      http.put(chatPath(chatId), { body, schema: ChatSchema }),
    deleteChat: (chatId: string): Promise<void> => http.delete(chatPath(chatId)),
    restoreChat: (chatId: string): Promise<Chat> =>
      http.post(`${chatPath(chatId)}/restore`, { schema: ChatSchema }),
    /** The newest `MESSAGES_PAGE_SIZE` messages older than `before`, oldest first. */
    listMessages: (chatId: string, before?: string | null): Promise<Page<Message>> =>
      getPage(http, `${chatPath(chatId)}/messages`, MessageSchema, {
        limit: MESSAGES_PAGE_SIZE,
        before: before ?? undefined,
      }),
    deleteAttachment: (chatId: string, attachmentId: string): Promise<void> =>
      http.delete(`${chatPath(chatId)}/attachments/${encodeURIComponent(attachmentId)}`),
  };
}

export type ChatsApi = ReturnType<typeof createChatsApi>;

export const attachmentsPath = (chatId: string) => `${chatPath(chatId)}/attachments`;
/**
 * The export download of the branch this tab shows (the server cannot know which version of each
 * message is on screen) with its labels in the screen's language and its dates in the reader's
 * time zone. All default to this tab's state.
 */
export function exportPath(
  chatId: string,
  format: 'md' | 'json',
  leaf: string | null = shownLeafId(chatId),
  locale: string = currentLanguage(),
  timeZone: string = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  const query = new URLSearchParams({ format, locale, timeZone } satisfies Omit<ChatExportQuery, 'leaf'>);
  if (leaf) query.set('leaf', leaf);
  return `${chatPath(chatId)}/export?${query}`;
}
