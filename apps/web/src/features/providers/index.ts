// The feature's public surface: code outside features/providers imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { ProvidersSettings } from './components/ProvidersSettings.tsx';
export { useModels } from './hooks/useProviders.ts';
export { addressText, blockedAddress, failureText } from './lib/failures.ts';
export { providerName } from './lib/names.ts';
