// The feature's public surface: code outside features/chat-import imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { ChatImportTab } from './components/ChatImportTab.tsx';
