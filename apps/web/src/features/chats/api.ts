import type { Chat, ChatCreate, ChatExportQuery, ChatUpdate, Message } from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { type Page, page } from '../../lib/http/paging.ts';
import { done, parsed, typed } from '../../lib/http/schemas.ts';
import { currentLanguage } from '../../lib/i18n/index.ts';
import { shownLeafId } from './hooks/useAgents.ts';

/** Chats shown per page of the sidebar. */
const CHATS_PAGE_SIZE = 50;
/** Messages loaded per page, newest first (older pages load on scroll up). */
const MESSAGES_PAGE_SIZE = 100;

const chatPath = (chatId: string) => `/api/v1/chats/${encodeURIComponent(chatId)}`;

const byChat = (chatId: string) => ({ params: { path: { chatId } } });

/** The chats manager calls (docs/ARCHITECTURE.md#chat-message-data-path). */
export function createChatsApi(client: ApiClient) {
  return {
    listChats: (query: { cursor?: string | null; q?: string; limit?: number }): Promise<Page<Chat>> =>
      page(
        typed<Chat>(),
        client.GET('/api/v1/chats', {
          params: {
            query: {
              limit: query.limit ?? CHATS_PAGE_SIZE,
              cursor: query.cursor ?? undefined,
              q: query.q?.trim() || undefined,
            },
          },
        }),
      ),
    getChat: (chatId: string): Promise<Chat> =>
      parsed(typed<Chat>(), client.GET('/api/v1/chats/{chatId}', byChat(chatId))),
    createChat: (body: ChatCreate): Promise<Chat> =>
      parsed(typed<Chat>(), client.POST('/api/v1/chats', { body })),
    updateChat: (chatId: string, body: ChatUpdate): Promise<Chat> =>
      parsed(typed<Chat>(), client.PUT('/api/v1/chats/{chatId}', { ...byChat(chatId), body })),
    deleteChat: (chatId: string): Promise<void> =>
      done(client.DELETE('/api/v1/chats/{chatId}', byChat(chatId))),
    restoreChat: (chatId: string): Promise<Chat> =>
      parsed(typed<Chat>(), client.POST('/api/v1/chats/{chatId}/restore', byChat(chatId))),
    /** The newest `MESSAGES_PAGE_SIZE` messages older than `before`, oldest first. */
    listMessages: (chatId: string, before?: string | null): Promise<Page<Message>> =>
      page(
        typed<Message>(),
        client.GET('/api/v1/chats/{chatId}/messages', {
          params: { path: { chatId }, query: { limit: MESSAGES_PAGE_SIZE, before: before ?? undefined } },
        }),
      ),
    deleteAttachment: (chatId: string, attachmentId: string): Promise<void> =>
      done(
        client.DELETE('/api/v1/chats/{chatId}/attachments/{attachmentId}', {
          params: { path: { chatId, attachmentId } },
        }),
      ),
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
