// The feature's public surface: code outside features/memory imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { MemoryTab } from './components/MemoryTab.tsx';
export { UsedMemoryBadge } from './components/UsedMemoryBadge.tsx';
