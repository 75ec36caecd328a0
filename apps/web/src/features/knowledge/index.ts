// The feature's public surface: code outside features/knowledge imports only from here. Only
// re-exports (the build treats this file as free of side effects).

export { Citations } from './components/Citations.tsx';
export { KnowledgePanel } from './components/KnowledgePanel.tsx';
export { KnowledgePicker } from './components/KnowledgePicker.tsx';
