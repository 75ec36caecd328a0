import { ExportLimits } from '@assistente/contracts';
import { Alert, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { formatSize } from '../../../ui/format.ts';
import { DownloadFailed } from '../api.ts';
import type { ExportProgress } from '../hooks/useExportDownload.ts';

const PARTS = ['chats', 'files', 'prompts', 'memories', 'shares', 'manifest'] as const;

/** What an export's ZIP holds, listed before anyone asks for one. */
export function ExportContents() {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        {t('dataExport.included.title')}
      </Text>
      <List
        size="sm"
        spacing={4}
        icon={<IconCheck size={14} stroke={2} />}
        data-testid="data-export-contents"
      >
        {PARTS.map((part) => (
          <List.Item key={part}>{t(`dataExport.included.${part}`)}</List.Item>
        ))}
      </List>
      <Text size="xs" c="dimmed">
        {t('dataExport.expires', { hours: String(ExportLimits.expiresHours) })}
      </Text>
    </Stack>
  );
}

/** Why an export did not arrive, in the reader's words. */
export function exportFailureText(t: ReturnType<typeof useTranslation>['t'], error: unknown): string {
  if (error instanceof DownloadFailed) {
    return t(
      error.status === 0
        ? 'dataExport.errors.interrupted'
        : error.status === 404
          ? 'dataExport.errors.gone'
          : 'dataExport.errors.failed',
    );
  }
  return apiErrorText(t, error);
}

/** The export's progress as it runs (bytes so far), then its outcome; read out to screen readers. */
export function ExportStatus({
  progress,
  showError = true,
}: {
  progress: ExportProgress;
  showError?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const size = (bytes: number) => formatSize(bytes, i18n.language);
  switch (progress.phase) {
    case 'idle':
      return null;
    case 'creating':
      return (
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="data-export-status">
          {t('dataExport.creating')}
        </Text>
      );
    case 'downloading':
      return (
        <Text size="sm" c="dimmed" aria-live="polite" data-testid="data-export-status">
          {t('dataExport.downloading', { size: size(progress.bytes) })}
        </Text>
      );
    case 'done':
      return (
        <Text size="sm" c="green" aria-live="polite" data-testid="data-export-status">
          {t('dataExport.done', { name: progress.fileName, size: size(progress.bytes) })}
        </Text>
      );
    case 'error':
      return showError ? (
        <Alert
          color="error"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={t('dataExport.errors.title')}
          role="alert"
          data-testid="data-export-error"
        >
          {exportFailureText(t, progress.error)}
        </Alert>
      ) : null;
  }
}
