// The feature's public surface: code outside features/settings imports only from here. Only re-exports
// (the build treats this file as free of side effects, so importing one name ships no other).

// The account's language, for the shell's language switcher.
export { useAccountLanguage } from './hooks/useAccountLanguage.ts';
// Pages, for the route table; the router loads each page's own file lazily (a chunk per page).
export { default as SettingsPage } from './SettingsPage.tsx';
