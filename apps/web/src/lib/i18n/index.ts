// The app's one entry point for translations: import `useTranslation`, `setLanguage`, `TFunction`
// from here. It replaced i18next + react-i18next (~18 KB gzip) to keep /auth/login within its
// 150 KB JavaScript budget; see translator.ts.
export { currentLanguage, loadAllTexts, loadTexts, setLanguage, translator } from './i18n.ts';
export type { Messages, TFunction, TVars } from './translator.ts';
export { type I18n, type UseTranslationResult, useTranslation } from './useTranslation.ts';
