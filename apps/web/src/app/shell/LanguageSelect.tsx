import { Locales } from '@assistente/contracts';
import { IconChevronDown, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { isLocale } from '../../lib/i18n/locale.ts';
import { useChangeLanguage } from '../../lib/i18n/useChangeLanguage.ts';
import classes from './LanguageSelect.module.css';

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
