import { Alert, Button, Skeleton, Stack } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from '../lib/i18n/index.ts';
import { apiErrorText } from './apiError.ts';

/** Placeholder rows while a list loads. */
export function ListSkeleton({
  rows = 5,
  height = 52,
  label,
}: {
  rows?: number;
  height?: number;
  label: string;
}) {
  return (
    <Stack gap="xs" aria-busy="true" aria-label={label} data-testid="list-loading">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} height={height} radius="md" />
      ))}
    </Stack>
  );
}

/** A load that failed: what happened, in the reader's words, and a retry that refetches it. */
export function LoadError({
  title,
  query,
}: {
  title: string;
  query: { error: unknown; refetch: () => unknown };
}) {
  const { t } = useTranslation();
  return (
    <Alert
      color="error"
      variant="light"
      radius="lg"
      title={title}
      icon={<IconAlertTriangle size={20} />}
      role="alert"
      data-testid="load-error"
    >
      <Stack gap="sm" align="flex-start">
        {apiErrorText(t, query.error)}
        <Button
          size="xs"
          variant="white"
          color="error"
          leftSection={<IconRefresh size={14} />}
          onClick={() => void query.refetch()}
        >
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
