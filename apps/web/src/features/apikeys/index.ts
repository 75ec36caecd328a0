// The feature's public surface: code outside features/apikeys imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { ApiKeysTab } from './components/ApiKeysTab.tsx';
export { DomainApiKeys } from './components/DomainApiKeys.tsx';
