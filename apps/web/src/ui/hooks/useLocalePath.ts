import { type Locale, splitLocale } from '@assistente/contracts';
import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { localizePath } from '../../lib/i18n/locale.ts';

/** The locale prefix of the current URL (`/en/chats` → `en`), or null. */
export function useLocalePrefix(): Locale | null {
  return splitLocale(useLocation().pathname).locale;
}

/** Keeps links under the current locale prefix: `lp('/chats')` → `/en/chats` on an /en page. */
export function useLocalePath(): (path: string) => string {
  const prefix = useLocalePrefix();
  return useCallback((path: string) => localizePath(path, prefix), [prefix]);
}
