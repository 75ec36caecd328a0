// The feature's public surface: code outside features/pii imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { PiiSetting } from './components/PiiSetting.tsx';
export { piiKindsText } from './lib/kinds.ts';
