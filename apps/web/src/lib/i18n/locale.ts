import { DefaultLocale, type Locale, Locales, splitLocale } from '@assistente/contracts';
import { getCookie, setCookie } from '../storage/cookies.ts';

/** The cookie that remembers the chosen language (docs/ARCHITECTURE.md#languages: 365 days, SameSite=Lax). */
export const LOCALE_COOKIE = 'i18n_redirected';
const LOCALE_COOKIE_MAX_AGE_DAYS = 365;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (Locales as readonly string[]).includes(value);
}

/** The first supported locale among browser languages: exact tag first, then the base language. */
export function matchBrowserLanguage(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const exact = Locales.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = tag.toLowerCase().split('-')[0];
    const byBase = Locales.find((l) => l.toLowerCase().split('-')[0] === base);
    if (byBase) return byBase;
  }
  return null;
}

export interface LocaleResolution {
  locale: Locale;
  /** The locale prefix of the URL, when it has one (`/en/chats` → `en`). */
  prefix: Locale | null;
  /** The path without the prefix. */
  path: string;
}

/**
 * The language of a URL: its prefix; for an unprefixed path the remembered cookie, else the
 * browser's language, else pt-BR (docs/ARCHITECTURE.md#languages).
 */
export function resolveLocale(input: {
  pathname: string;
  cookie: string | null;
  languages: readonly string[];
}): LocaleResolution {
  const { locale: prefix, path } = splitLocale(input.pathname);
  if (prefix) return { locale: prefix, prefix, path };
  if (isLocale(input.cookie)) return { locale: input.cookie, prefix: null, path };
  return { locale: matchBrowserLanguage(input.languages) ?? DefaultLocale, prefix: null, path };
}

/** Resolves against the real document cookie and navigator. */
export function resolveBrowserLocale(pathname: string): LocaleResolution {
  return resolveLocale({
    pathname,
    cookie: getCookie(LOCALE_COOKIE),
    languages: typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]),
  });
}

export function rememberLocale(locale: Locale): void {
  setCookie(LOCALE_COOKIE, locale, { maxAgeDays: LOCALE_COOKIE_MAX_AGE_DAYS, sameSite: 'Lax', path: '/' });
}

/** Puts a path under a locale prefix (`/chats`, `en` → `/en/chats`); no prefix keeps it as is. */
export function localizePath(path: string, prefix: Locale | null): string {
  if (!prefix) return path;
  return path === '/' ? `/${prefix}` : `/${prefix}${path}`;
}
