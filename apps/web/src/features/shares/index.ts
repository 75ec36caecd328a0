// The feature's public surface: code outside features/shares imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

// Loaded when first opened (components/LazyShareDialog.tsx).
export { LazyShareDialog as ShareDialog } from './components/LazyShareDialog.tsx';
export { PublicLinksSetting } from './components/PublicLinksSetting.tsx';
export { ShareLinksTab } from './components/ShareLinksTab.tsx';
// The page of a shared chat (/s/{shareId}), for the route table; the router loads it lazily.
export { default as SharedChatPage } from './SharedChatPage.tsx';
