import { type Locale, Locales } from '@assistente/contracts';
import { Button } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useAccountLanguage } from '../../features/settings/index.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { Menu } from '../../ui/DeferredFloating.tsx';

/**
 * Picks the signed-in person's interface language, saved to their account; on a prefixed URL it
 * moves to the same page under the new prefix.
 */
export function LanguageSwitcher({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const choose = useAccountLanguage();
  const current = i18n.language as Locale;

  return (
    <Menu position="bottom-end" shadow="md" width={200} withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          color="neutral.7"
          size="compact-md"
          leftSection={<IconLanguage size={18} stroke={1.7} />}
          aria-label={t('locale.label')}
          px={compact ? 6 : undefined}
        >
          {compact ? current.split('-')[0]?.toUpperCase() : t(`locale.names.${current}`)}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('locale.label')}</Menu.Label>
        {Locales.map((locale) => (
          <Menu.Item
            key={locale}
            lang={locale}
            onClick={() => choose(locale)}
            rightSection={locale === current ? <IconCheck size={16} /> : null}
            aria-current={locale === current ? 'true' : undefined}
          >
            {t(`locale.names.${locale}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
