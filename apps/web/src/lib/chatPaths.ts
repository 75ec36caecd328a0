/** Paths of the chat screens (unprefixed; `useLocalePath` adds the locale). */
export const chatPath = (chatId: string) => `/chats/${encodeURIComponent(chatId)}`;
export const newChatPath = (agentId?: string | null) =>
  agentId ? `/chats?agent=${encodeURIComponent(agentId)}` : '/chats';
