import type { UsageMe } from '@assistente/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { MY_USAGE_KEY } from '../../usage/index.ts';
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
      // The budget banner reads the person's usage: asked again after an answer only while a budget
      // covers them, so an answer costs no second request where none does.
      usageChanged: () =>
        void client.invalidateQueries({
          queryKey: MY_USAGE_KEY,
          predicate: (query) => (query.state.data as UsageMe | undefined)?.budgets.length !== 0,
        }),
    });
    return () => agents.setListEvents(null);
  }, [agents, client]);
}
