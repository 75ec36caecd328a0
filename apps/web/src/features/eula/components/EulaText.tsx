import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';

/** The sections of the terms of use and privacy summary, in order (`eula.terms.<section>.title|body`). */
const EULA_SECTIONS = ['service', 'ai_content', 'account', 'privacy_data', 'privacy_use', 'rights'] as const;

/** The terms of use and the privacy summary, in the interface language. */
export function EulaText() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="eula-text">
      <Text size="sm">{t('eula.terms.intro')}</Text>
      {EULA_SECTIONS.map((section, index) => (
        <Stack gap={4} key={section}>
          <Title order={3} size="h6">
            {index + 1}. {t(`eula.terms.${section}.title`)}
          </Title>
          <Text size="sm" c="neutral.8">
            {t(`eula.terms.${section}.body`)}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}
