import type { ApiKeyCreated } from '@assistente/contracts';
import { Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { getRuntimeConfig } from '../../../lib/config/runtimeConfig.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { CopyIconButton } from '../../../ui/CopyIconButton.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { ApiKeysList } from './ApiKeysList.tsx';
import { CreateApiKeyDialog } from './CreateApiKeyDialog.tsx';
import { SecretDialog } from './SecretDialog.tsx';

/** The OpenAI-compatible API's address: the app's public URL and `/v1`. */
function baseUrl(): string {
  return `${getRuntimeConfig().appUrl.replace(/\/+$/, '')}/v1`;
}

/** `/settings` → API keys: the caller's own keys, a new one (its secret shown once), revocation. */
export function ApiKeysTab() {
  const { t } = useTranslation();
  const popup = usePopup();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const url = baseUrl();
  const open = () => setCreating(true);

  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" align="flex-start" gap="md" mb="md">
        <Stack gap={4} style={{ flex: '1 1 260px' }}>
          <Title order={2} size="h4">
            {t('apiKeys.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('apiKeys.description')}
          </Text>
          {/* On a phone the address goes under its label whole, rather than broken mid-way. */}
          <Group gap={6} wrap="wrap" mt={4}>
            <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
              {t('apiKeys.base_url')}
            </Text>
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Code data-testid="api-base-url" style={{ overflowWrap: 'anywhere' }}>
                {url}
              </Code>
              <CopyIconButton value={url} label={t('apiKeys.copy_base_url')} iconSize={16} />
            </Group>
          </Group>
        </Stack>
        <Button leftSection={<IconPlus size={18} />} onClick={open} data-testid="api-key-create">
          {t('apiKeys.create')}
        </Button>
      </Group>
      <ApiKeysList scope="own" emptyDescription={t('apiKeys.empty_description')} />
      <CreateApiKeyDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(made) => {
          setCreating(false);
          setCreated(made);
          void popup.show({ status: 'success', title: t('apiKeys.created', { name: made.name }) });
        }}
      />
      <SecretDialog created={created} onClose={() => setCreated(null)} />
    </Card>
  );
}
