import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { authServices } from '../../auth/index.ts';
import { createDataExportApi } from '../api.ts';
import { useExportDownload } from '../hooks/useExportDownload.ts';
import { ExportContents, ExportStatus } from './ExportStatus.tsx';

/**
 * Settings → My data: a ZIP of everything the person has, downloaded with its progress
 * (docs/ARCHITECTURE.md#export-and-erasure).
 */
export function MyDataTab() {
  const { t } = useTranslation();
  const { progress, busy, start } = useExportDownload();
  const download = () => void start(() => createDataExportApi(authServices().accountHttp).createMine());

  return (
    <Stack gap="lg" data-testid="data-export-tab">
      <Stack gap={4}>
        <Title order={2} size="h4">
          {t('dataExport.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('dataExport.description')}
        </Text>
      </Stack>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <ExportContents />
          <Group>
            <Button
              leftSection={<IconDownload size={18} />}
              onClick={download}
              loading={busy}
              data-testid="data-export-download"
            >
              {t('dataExport.download')}
            </Button>
          </Group>
          <ExportStatus progress={progress} />
        </Stack>
      </Card>
    </Stack>
  );
}
