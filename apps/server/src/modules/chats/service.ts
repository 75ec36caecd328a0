import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import * as answers from './answers.ts';
import * as attachments from './attachments.ts';
import * as crud from './chat-crud.ts';
import { importChats } from './chat-import.ts';
import { exportChat } from './export.ts';
import * as messages from './messages.ts';
import * as ownerData from './owner-data.ts';
import * as purge from './purge.ts';
import * as retention from './retention.ts';
import * as shares from './shares.ts';
import { createChatsState } from './state.ts';

export type { AttachmentForModel } from './attachments.ts';
export { type ContextMessage, type PreparedUserMessage, titleFrom } from './messages.ts';

/**
 * The chats manager (docs/ARCHITECTURE.md#chat-message-data-path). It only names the operations
 * (docs/ARCHITECTURE.md#service-style); each lives in the file of its concern over the shared state
 * of state.ts. Caller-taking operations answer 404 for anything that is not the caller's own live
 * chat; the others (answers.ts) are for the agents websocket, on ids it got from them.
 */
export function chatsService(ctx: AppContext) {
  return {
    newChat: messages.newChat,
    ...withState(createChatsState(ctx), {
      // For the agents websocket (and the HTTP routes)
      getChatForCaller: crud.getChatForCaller,
      createChat: crud.createChat,
      getMessageForCaller: messages.getMessageForCaller,
      prepareUserMessage: messages.prepareUserMessage,
      listMessagesForContext: messages.listMessagesForContext,
      getAttachmentsForModel: attachments.getAttachmentsForModel,
      toolFiles: attachments.toolFiles,
      // The answers' lifecycle, for the generation worker
      commitExchange: answers.commitExchange,
      createAssistantMessage: answers.createAssistantMessage,
      finishAssistantMessage: answers.finishAssistantMessage,
      saveStreaming: answers.saveStreaming,
      streamingAnswerIds: answers.streamingAnswerIds,
      sweepStaleAnswers: answers.sweepStaleAnswers,
      resumeAnswer: answers.resumeAnswer,
      awaitingInChat: answers.awaitingInChat,
      setAwaitingParts: answers.setAwaitingParts,
      awaitingAnswers: answers.awaitingAnswers,
      endAwaitingAnswer: answers.endAwaitingAnswer,
      allowedTools: answers.allowedTools,
      allowToolInChat: answers.allowToolInChat,
      // HTTP
      listChats: crud.listChats,
      updateChat: crud.updateChat,
      deleteChat: crud.deleteChat,
      restoreChat: crud.restoreChat,
      listMessages: messages.listMessages,
      exportChat: exportChat,
      importChats: importChats,
      checkUpload: attachments.checkUpload,
      uploadAttachment: attachments.uploadAttachment,
      openAttachment: attachments.openAttachment,
      deleteAttachment: attachments.deleteAttachment,
      // Share links (docs/ARCHITECTURE.md#share-links)
      createShare: shares.createShare,
      listShares: shares.listShares,
      revokeShare: shares.revokeShare,
      readShare: shares.readShare,
      openShareFile: shares.openShareFile,
      copyShare: shares.copyShare,
      shareOptions: shares.shareOptions,
      getSharingSettings: shares.getSharingSettings,
      putSharingSettings: shares.putSharingSettings,
      // A person's chats as a whole, for governance (docs/ARCHITECTURE.md#export-and-erasure)
      exportChatsOf: ownerData.exportChatsOf,
      openOwnerFile: ownerData.openOwnerFile,
      sharesOf: ownerData.sharesOf,
      eraseChatsOf: ownerData.eraseChatsOf,
      // Jobs
      purgeDeleted: purge.purgeDeleted,
      purgeDrafts: purge.purgeDrafts,
      // Retention (docs/ARCHITECTURE.md#retention)
      expireChats: retention.expireChats,
      expireFiles: retention.expireFiles,
    }),
  };
}

export type ChatsService = ReturnType<typeof chatsService>;
