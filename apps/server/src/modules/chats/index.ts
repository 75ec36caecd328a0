/**
 * The chats manager. The agents websocket uses `chatsService(ctx)`:
 * - `getChatForCaller(caller, chatId)` → Chat (404 NOT_FOUND unless the caller's own live chat)
 * - `createChat(caller, { title?, agentId? })` → Chat
 * - `getMessageForCaller(caller, chatId, messageId)` → Message (regenerate / edit targets)
 * - `appendUserMessage(caller, chatId, { content, parentId?, attachmentIds? })` → Message, committed
 * - `createAssistantMessage(chatId, parentId, model)` → Message with status 'streaming'
 * - `appendAssistantContent(messageId, fullContent)` → false once the message has finished
 * - `finishAssistantMessage(messageId, { status, content?, usage?, error?, model? })` → Message
 * - `listMessagesForContext(chatId, leafMessageId)` → Message[] root → leaf
 * - `getAttachmentsForModel(caller, ids)` → AttachmentForModel[] (bytes + contentType)
 * - `autoTitle(chatId, text)`, `touchChat(chatId)`
 */
export { chatsRoutes } from './routes.ts';
export {
  type AttachmentForModel,
  CHAT_RESTORE_WINDOW_MS,
  type ChatsService,
  chatsService,
  MAX_MESSAGE_CHARS,
  titleFrom,
} from './service.ts';
