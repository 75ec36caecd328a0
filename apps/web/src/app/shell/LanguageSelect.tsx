import { type Locale, Locales, splitLocale } from '@assistente/contracts';
import { IconChevronDown, IconLanguage } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';
import { setLanguage, useTranslation } from '../../lib/i18n/index.ts';
import { isLocale, localizePath, rememberLocale } from '../../lib/i18n/locale.ts';
import classes from './LanguageSelect.module.css';

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

/**
 * A native language picker: the platform's own UI on phones. A plain `<select>` rather than
 * Mantine's NativeSelect, whose input machinery would weigh on the login page's JS budget.
 */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const change = useChangeLanguage();
  return (
    <div className={classes.root}>
      <IconLanguage className={classes.icon} size={16} stroke={1.7} aria-hidden="true" />
      <select
        className={classes.select}
        aria-label={t('locale.label')}
        value={i18n.language}
        onChange={(event) => {
          const value = event.currentTarget.value;
          if (isLocale(value)) change(value);
        }}
      >
        {Locales.map((locale) => (
          <option key={locale} value={locale}>
            {t(`locale.names.${locale}`)}
          </option>
        ))}
      </select>
      <IconChevronDown className={classes.chevron} size={16} stroke={1.7} aria-hidden="true" />
    </div>
  );
}
