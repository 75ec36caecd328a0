// The feature's public surface: code outside features/chats imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as ChatPage } from './ChatPage.tsx';
export { default as ChatsPage } from './ChatsPage.tsx';
export { ChatPreview } from './components/ChatPreview.tsx';
export { ChatsSidebar } from './components/ChatsSidebar.tsx';
export { ChatView, type EmbedChatOptions } from './components/ChatView.tsx';
export { Composer } from './components/Composer.tsx';
export {
  ChatShareContext,
  type ChatShareDialogProps,
  ReadOnlyMessages,
} from './components/ReadOnlyMessages.tsx';
export { UndoToast } from './components/UndoToast.tsx';
export { useChatListEvents } from './hooks/useChatListEvents.ts';
export { chatKeys, useChatsList } from './hooks/useChatsList.ts';
