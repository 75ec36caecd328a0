import type { ApiKeyCreated } from '@assistente/contracts';
import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { CopyIconButton } from '../../../ui/CopyIconButton.tsx';

/** The new key's secret, shown this once, with a copy button. */
export function SecretDialog({ created, onClose }: { created: ApiKeyCreated | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={created !== null}
      onClose={onClose}
      title={t('apiKeys.created_title')}
      closeButtonProps={{ 'aria-label': t('popup.close') }}
      centered
      radius="lg"
      size="lg"
    >
      {created ? (
        <Stack gap="md">
          <Alert color="accent" variant="light" icon={<IconAlertTriangle size={18} />}>
            {t('apiKeys.created_message')}
          </Alert>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('apiKeys.secret_label')}
            </Text>
            <Group gap="xs" wrap="nowrap" align="center">
              <Code
                block
                data-testid="api-key-secret"
                style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
              >
                {created.secret}
              </Code>
              <CopyIconButton value={created.secret} label={t('apiKeys.copy')} iconSize={18} />
            </Group>
          </Stack>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="api-key-done">
              {t('apiKeys.done')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
