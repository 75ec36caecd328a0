import type { Chat } from '@assistente/contracts';
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { Page } from '../../../lib/http/paging.ts';
import { offerUndo } from '../lib/undo.ts';
import { chatsApi } from './chatsApi.ts';

type ListData = InfiniteData<Page<Chat>, string | null>;

export const chatKeys = {
  all: ['chats'] as const,
  lists: () => ['chats', 'list'] as const,
  list: (q: string) => ['chats', 'list', q] as const,
  chat: (chatId: string) => ['chats', 'chat', chatId] as const,
};

/** The sidebar's list, page by page (cursor), pinned first then newest; `q` searches titles and messages. */
export function useChatsList(q: string) {
  return useInfiniteQuery({
    queryKey: chatKeys.list(q),
    queryFn: ({ pageParam }) => chatsApi().listChats({ cursor: pageParam, q }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

function eachList(client: QueryClient, update: (data: ListData, q: string) => ListData): void {
  for (const query of client.getQueryCache().findAll({ queryKey: chatKeys.lists() })) {
    const data = query.state.data as ListData | undefined;
    if (!data) continue;
    const q = String(query.queryKey[2] ?? '');
    client.setQueryData<ListData>(query.queryKey, update(data, q));
  }
}

function mapChats(data: ListData, fn: (chats: Chat[]) => Chat[]): ListData {
  return { ...data, pages: data.pages.map((page) => ({ ...page, items: fn(page.items) })) };
}

/** Where a chat goes in "pinned first, newest first" order, within the loaded first page. */
function insertSorted(chats: Chat[], chat: Chat): Chat[] {
  const rest = chats.filter((c) => c.chatId !== chat.chatId);
  const at = rest.findIndex(
    (c) => (chat.pinned && !c.pinned) || (chat.pinned === c.pinned && c.updatedAt <= chat.updatedAt),
  );
  if (at === -1) return [...rest, chat];
  return [...rest.slice(0, at), chat, ...rest.slice(at)];
}

/** Cache updates that keep every loaded list right without refetching 10,000 chats. */
export const chatListCache = {
  /** A chat changed (title, pin, params) in place. */
  update(client: QueryClient, chat: Chat): void {
    eachList(client, (data) =>
      mapChats(data, (chats) => chats.map((c) => (c.chatId === chat.chatId ? chat : c))),
    );
    client.setQueryData(chatKeys.chat(chat.chatId), chat);
  },
  /** A new chat: at the top of the unfiltered list (search results are left alone). */
  add(client: QueryClient, chat: Chat): void {
    eachList(client, (data, q) => {
      if (q) return data;
      const exists = data.pages.some((p) => p.items.some((c) => c.chatId === chat.chatId));
      if (exists) return data;
      const [first, ...rest] = data.pages;
      if (!first) return data;
      return {
        ...data,
        pages: [{ ...first, items: insertSorted(first.items, chat), total: first.total + 1 }, ...rest],
      };
    });
    client.setQueryData(chatKeys.chat(chat.chatId), chat);
  },
  /** Activity: the chat moves up to the newest of its group. */
  touch(client: QueryClient, chatId: string): void {
    const now = new Date().toISOString();
    eachList(client, (data) => {
      const found = data.pages.flatMap((p) => p.items).find((c) => c.chatId === chatId);
      if (!found) return data;
      const moved = { ...found, updatedAt: now };
      const removed = mapChats(data, (chats) => chats.filter((c) => c.chatId !== chatId));
      const [first, ...rest] = removed.pages;
      if (!first) return data;
      return { ...removed, pages: [{ ...first, items: insertSorted(first.items, moved) }, ...rest] };
    });
  },
  remove(client: QueryClient, chatId: string): void {
    eachList(client, (data) => mapChats(data, (chats) => chats.filter((c) => c.chatId !== chatId)));
  },
  /** A pin changes the order: re-sort the loaded part. */
  repin(client: QueryClient, chat: Chat): void {
    eachList(client, (data) => {
      const removed = mapChats(data, (chats) => chats.filter((c) => c.chatId !== chat.chatId));
      const [first, ...rest] = removed.pages;
      if (!first) return data;
      return { ...removed, pages: [{ ...first, items: insertSorted(first.items, chat) }, ...rest] };
    });
    client.setQueryData(chatKeys.chat(chat.chatId), chat);
  },
};

export function useRenameChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ chatId, title }: { chatId: string; title: string }) =>
      chatsApi().updateChat(chatId, { title }),
    onSuccess: (chat) => chatListCache.update(client, chat),
  });
}

export function usePinChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ chatId, pinned }: { chatId: string; pinned: boolean }) =>
      chatsApi().updateChat(chatId, { pinned }),
    onSuccess: (chat) => chatListCache.repin(client, chat),
  });
}

/**
 * Deletes a chat and offers its undo. The offer is made here, in the mutation's own callback: one
 * passed to `mutate` is dropped when its component unmounts first — on a phone, deleting the open
 * chat closes the list that made the call, and the offer was lost whenever the answer came later.
 */
export function useDeleteChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chat: Pick<Chat, 'chatId' | 'title'>) => chatsApi().deleteChat(chat.chatId),
    onMutate: (chat) => chatListCache.remove(client, chat.chatId),
    onSuccess: (_deleted, chat) => offerUndo(chat.chatId, chat.title),
    onError: () => client.invalidateQueries({ queryKey: chatKeys.lists() }),
  });
}

export function useRestoreChat() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chatId: string) => chatsApi().restoreChat(chatId),
    onSuccess: (chat) => {
      chatListCache.repin(client, chat);
    },
  });
}
