import type { JobRun } from '@assistente/contracts';
import { Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { formatDateTime } from '../../../ui/format.ts';
import { countsText } from '../internal/words.ts';

const STATUS_COLOR = { running: 'primary', ok: 'green', failed: 'error' } as const;

/** A job's last run: when, how it went, what it counted in words, and why it failed. */
export function RunSummary({ run }: { run: JobRun | null }) {
  const { t, i18n } = useTranslation();
  if (!run) {
    return (
      <Text size="sm" c="dimmed" data-testid="run-summary" data-status="none">
        {t('jobs.never_run')}
      </Text>
    );
  }
  const counts = countsText(t, run.counts);
  return (
    <Stack gap={4} data-testid="run-summary" data-status={run.status} data-run={run.id}>
      <Group gap="xs" wrap="wrap">
        <Badge
          variant="light"
          radius="sm"
          color={STATUS_COLOR[run.status]}
          leftSection={run.status === 'running' ? <Loader size={10} color="primary" /> : null}
        >
          {t(`jobs.status.${run.status}`)}
        </Badge>
        <Text size="sm">{formatDateTime(run.startedAt, i18n.language)}</Text>
        <Text size="sm" c="dimmed">
          {t(`jobs.trigger.${run.trigger}`)}
        </Text>
      </Group>
      {counts ? (
        <Text size="sm" data-testid="run-counts">
          {counts}
        </Text>
      ) : run.status === 'ok' ? (
        <Text size="sm" c="dimmed" data-testid="run-counts">
          {t('jobs.counts.none')}
        </Text>
      ) : null}
      {run.status === 'failed' && run.error ? (
        <Text size="sm" c="error.7" style={{ overflowWrap: 'anywhere' }} data-testid="run-error">
          {run.error}
        </Text>
      ) : null}
    </Stack>
  );
}
