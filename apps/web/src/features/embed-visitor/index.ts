// The feature's public surface: code outside features/embed-visitor imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as EmbeddedChatPage } from './EmbeddedChatPage.tsx';
export { default as EmbeddedChatsPage } from './EmbeddedChatsPage.tsx';

// The Embeds tab's preview of an embed, as its visitors see it.
export { EmbeddedPreview, type EmbeddedPreviewProps } from './EmbeddedPreview.tsx';
