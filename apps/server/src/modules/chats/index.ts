import { defineModule } from '../../lib/module.ts';
import { chatImportRoutes } from './import-routes.ts';
import { chatsRoutes } from './routes.ts';
import { type ChatsService, chatsService } from './service.ts';
import { shareRoutes, sharingSettingsRoutes } from './share-routes.ts';

/** How often deleted chats past their undo window and abandoned drafts are purged. */
const PURGE_EVERY_MS = 60_000;

/**
 * The chats manager. The agents websocket uses `ctx.services.chats`:
 * - `getChatForCaller(caller, chatId)` → Chat (404 NOT_FOUND unless the caller's own live chat)
 * - `createChat(caller, { title?, agentId? })` → Chat
 * - `getMessageForCaller(caller, chatId, messageId)` → Message (regenerate / edit targets)
 * - `prepareUserMessage` + `commitExchange(prepared, model, chat)`: a question and its empty answer,
 *   with what they do to the chat (`newChat(caller, …)` creates it), in one statement
 * - `createAssistantMessage(chatId, parentId, model)` → Message with status 'streaming'
 * - `finishAssistantMessage(messageId, { status, content?, usage?, error?, model?, usedMemory? })` → Message
 * - `listMessagesForContext(chatId, leafMessageId)` → ContextMessage[] root → leaf
 * - `getAttachmentsForModel(caller, ids)` → AttachmentForModel[] (bytes + contentType)
 * - `saveStreaming(batch)`, `streamingAnswerIds(chatId)`, `sweepStaleAnswers(before, error)`: the
 *   streaming answers' writes (chats/answers.ts), so agents names none of these tables
 */
export { type ChatCaller, chatOwnerId, mayAttach } from './policy.ts';
export { ATTACHMENTS_REMOVED } from './purge.ts';
export type { ExpiryRule, Pause } from './retention.ts';
export { type AttachmentForModel, type ChatsService, type ContextMessage, titleFrom } from './service.ts';
export type { ExchangeChat } from './store.ts';

declare module '../../context.ts' {
  interface Services {
    chats: ChatsService;
  }
}

/**
 * The chats manager (docs/ARCHITECTURE.md#chat-message-data-path). Answers left streaming by a
 * dead process are the agents module's (its stale-answer job).
 */
export const chatsModule = defineModule({
  name: 'chats',
  hostedBy: 'chats',
  services: (ctx) => ({ chats: chatsService(ctx) }),
  routes: [
    { plugin: chatsRoutes, prefix: '/api/v1/chats' },
    // Its own plugin, for its own multipart limits (docs/ARCHITECTURE.md#chat-import).
    { plugin: chatImportRoutes, prefix: '/api/v1/chats' },
    // Share links: /api/v1/chats/{chatId}/shares and /api/v1/shares… (docs/ARCHITECTURE.md#share-links)
    { plugin: shareRoutes, prefix: '/api/v1' },
    // Beside the other settings, where a cluster's proxy sends /api/v1/settings.
    { plugin: sharingSettingsRoutes, prefix: '/api/v1/settings/sharing', hostedBy: ['accounts'] },
  ],
  jobs: [
    {
      name: 'chats.purge-deleted',
      everyMs: PURGE_EVERY_MS,
      run: async (ctx) => void (await ctx.services.chats.purgeDeleted()),
    },
    {
      name: 'chats.purge-drafts',
      everyMs: PURGE_EVERY_MS,
      run: async (ctx) => void (await ctx.services.chats.purgeDrafts()),
    },
  ],
});
