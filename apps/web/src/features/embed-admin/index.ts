// The feature's public surface: code outside features/embed-admin imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { EmbedsTab } from './components/EmbedsTab.tsx';
