import { Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconClockPlay } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { useJobs } from '../hooks/useJobs.ts';
import { jobTitle, periodText } from '../internal/words.ts';
import { RunJobButton } from './RunJobButton.tsx';
import { RunSummary } from './RunSummary.tsx';

/**
 * Settings → Tarefas (SuperAdmin): every background job of the cluster, its period, last run and
 * next run, and "run now" (docs/ARCHITECTURE.md#background-jobs). A running job is followed until
 * it ends.
 */
export function JobsTab() {
  const { t, i18n } = useTranslation();
  const jobs = useJobs();

  return (
    <Stack gap="lg" data-testid="jobs-tab">
      <Stack gap={4}>
        <Title order={2} size="h4">
          {t('jobs.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('jobs.description')}
        </Text>
      </Stack>
      {jobs.isPending ? (
        <ListSkeleton rows={4} height={96} label={t('app.loading')} />
      ) : jobs.isError ? (
        <LoadError title={t('jobs.load_failed')} query={jobs} />
      ) : jobs.data.length === 0 ? (
        <EmptyPanel icon={<IconClockPlay size={28} />} title={t('jobs.empty')} />
      ) : (
        <Stack gap="sm" data-testid="jobs-list">
          {jobs.data.map((job) => (
            <Card
              key={job.name}
              withBorder
              radius="md"
              padding="md"
              data-testid="job-row"
              data-job={job.name}
            >
              <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
                <Stack gap={6} style={{ flex: '1 1 16rem', minWidth: 0 }}>
                  <Group gap="xs" wrap="wrap">
                    <Text fw={600}>{jobTitle(t, job.name)}</Text>
                    <Code>{job.name}</Code>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {periodText(t, job.everyMs)}
                    {' · '}
                    {job.nextRunAt
                      ? t('jobs.next_run', { at: formatDateTime(job.nextRunAt, i18n.language) })
                      : t('jobs.next_run_none')}
                  </Text>
                  <RunSummary run={job.lastRun} />
                </Stack>
                <RunJobButton name={job.name} running={job.lastRun?.status === 'running'} />
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
