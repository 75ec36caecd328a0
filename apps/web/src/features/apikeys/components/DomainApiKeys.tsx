import { Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ApiKeysList } from './ApiKeysList.tsx';

/** `/integration` → API keys (Admins): every key of the organisation, each revocable. */
export function DomainApiKeys() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack gap={4} mb="md">
        <Title order={2} size="h4">
          {t('apiKeys.domain_title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('apiKeys.domain_description')}
        </Text>
      </Stack>
      <ApiKeysList scope="domain" emptyDescription={t('apiKeys.domain_empty_description')} />
    </Card>
  );
}
