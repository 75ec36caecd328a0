import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAgents } from './useAgents.ts';
import { chatListCache } from './useChatsList.ts';

/** Keeps the loaded chat lists in step with the socket: new chats, new titles, new activity. */
export function useChatListEvents(): void {
  const agents = useAgents();
  const client = useQueryClient();
  useEffect(() => {
    agents.setListEvents({
      chatCreated: (chat) => chatListCache.add(client, chat),
      chatUpdated: (chat) => chatListCache.update(client, chat),
      activity: (chatId) => chatListCache.touch(client, chatId),
    });
    return () => agents.setListEvents(null);
  }, [agents, client]);
}
