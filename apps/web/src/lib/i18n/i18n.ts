import { DefaultLocale, type Locale } from '@assistente/contracts';
import { reportWarning } from '../reporting.ts';
import { isLocale } from './locale.ts';
import { LOCALE_PARTS, type LocalePart } from './parts.ts';
import { createTranslator, type Messages } from './translator.ts';

// Each part of each language is its own chunk (`?part=` is resolved by a plugin in
// vite.config.ts): a page only downloads the texts it can show.
const parts = {
  shell: import.meta.glob<Messages>('../../locales/*.json', { query: { part: 'shell' }, import: 'default' }),
  auth: import.meta.glob<Messages>('../../locales/*.json', { query: { part: 'auth' }, import: 'default' }),
  chat: import.meta.glob<Messages>('../../locales/*.json', { query: { part: 'chat' }, import: 'default' }),
  app: import.meta.glob<Messages>('../../locales/*.json', { query: { part: 'app' }, import: 'default' }),
  admin: import.meta.glob<Messages>('../../locales/*.json', { query: { part: 'admin' }, import: 'default' }),
};

/** The app's translator: pt-BR is the reference language and the fallback for missing keys. */
export const translator = createTranslator({
  parts: LOCALE_PARTS,
  fallback: DefaultLocale,
  load: (locale, part) => {
    const load = parts[part as keyof typeof parts]?.[`../../locales/${locale}.json`];
    return load ? load() : Promise.reject(new Error(`No texts for locale ${locale}`));
  },
  onMissingKey: import.meta.env.DEV
    ? (key, locale) => reportWarning(`[i18n] missing text "${key}" in ${locale}`, 'i18n')
    : undefined,
});

/** The current interface language. */
export function currentLanguage(): Locale {
  const { language } = translator;
  return isLocale(language) ? language : DefaultLocale;
}

/**
 * Loads a language's texts (once) and switches to it; also sets `<html lang>`. `more` parts load
 * with the shell's (one round of requests), and with every language switched to later.
 */
export async function setLanguage(locale: Locale | string, more: readonly LocalePart[] = []): Promise<void> {
  if (!isLocale(locale)) throw new Error(`No texts for locale ${locale}`);
  await translator.changeLanguage(locale, more);
  if (typeof document !== 'undefined' && translator.language === locale)
    document.documentElement.lang = locale;
}

/** Loads the texts of every screen (the signed-in layouts need more than the shell's). */
export function loadAllTexts(): Promise<void> {
  return translator.loadAllParts();
}

/** Loads parts of the texts beside the shell's (an embedded chat needs only the chat's). */
export function loadTexts(...which: LocalePart[]): Promise<void> {
  return translator.loadParts(which);
}
