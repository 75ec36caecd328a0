/**
 * The chats manager. The agents websocket uses `ctx.services.chats`:
 * - `getChatForCaller(caller, chatId)` → Chat (404 NOT_FOUND unless the caller's own live chat)
 * - `createChat(caller, { title?, agentId? })` → Chat
 * - `getMessageForCaller(caller, chatId, messageId)` → Message (regenerate / edit targets)
 * - `prepareUserMessage` + `commitExchange(prepared, model, chat)`: a question and its empty answer,
 *   with what they do to the chat (`newChat(caller, …)` creates it), in one statement
 * - `createAssistantMessage(chatId, parentId, model)` → Message with status 'streaming'
 * - `finishAssistantMessage(messageId, { status, content?, usage?, error?, model? })` → Message
 * - `listMessagesForContext(chatId, leafMessageId)` → ContextMessage[] root → leaf
 * - `getAttachmentsForModel(caller, ids)` → AttachmentForModel[] (bytes + contentType)
 */
export { type ChatCaller, chatOwnerId, mayAttach } from './policy.ts';
export { chatsRoutes } from './routes.ts';
export {
  type AttachmentForModel,
  type ChatsService,
  type ContextMessage,
  chatsService,
  titleFrom,
} from './service.ts';
export type { ExchangeChat } from './store.ts';
