import { type Locale, splitLocale } from '@assistente/contracts';
import { useLocation, useNavigate } from 'react-router';
import { setLanguage } from './i18n.ts';
import { localizePath, rememberLocale } from './locale.ts';

/** Switches the interface language; a prefixed URL moves to the same page under the new prefix. */
export function useChangeLanguage(): (locale: Locale) => void {
  const location = useLocation();
  const navigate = useNavigate();
  return (locale: Locale) => {
    rememberLocale(locale);
    const { locale: prefix, path } = splitLocale(location.pathname);
    if (prefix)
      navigate(`${localizePath(path, locale)}${location.search}${location.hash}`, { replace: true });
    else void setLanguage(locale);
  };
}
