// The feature's public surface: code outside features/retention imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

export { RetentionNotice } from './components/RetentionNotice.tsx';
export { RetentionTab } from './components/RetentionTab.tsx';
