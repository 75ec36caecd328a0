// The feature's public surface: code outside features/prompts imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).
export { PromptPicker, type PromptPickerHandle } from './components/PromptPicker.tsx';
export { PromptsTab } from './components/PromptsTab.tsx';
export { slashQuery } from './internal/slash.ts';
