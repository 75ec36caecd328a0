// The feature's public surface: code outside features/eula imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { EulaGate } from './components/EulaGate.tsx';
export { EulaText } from './components/EulaText.tsx';
export { eulaKeys, useEulaStatus } from './hooks/useEulaStatus.ts';
