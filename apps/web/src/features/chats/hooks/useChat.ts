import type { ChatParams } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { chatsApi } from './chatsApi.ts';
import { chatKeys, chatListCache } from './useChatsList.ts';

/** One chat's record (title, santito, parameters). */
export function useChatRecord(chatId: string | null) {
  return useQuery({
    queryKey: chatKeys.chat(chatId ?? ''),
    queryFn: () => chatsApi().getChat(chatId ?? ''),
    enabled: chatId !== null,
  });
}

export function useSaveChatParams(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (params: ChatParams | null) => chatsApi().updateChat(chatId, { params }),
    onSuccess: (chat) => chatListCache.update(client, chat),
  });
}
