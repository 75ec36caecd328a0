import { Button, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { HttpError } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { useRunJob } from '../hooks/useJobs.ts';
import { jobTitle, RETENTION_JOB } from '../internal/words.ts';

// Jobs that delete what people may still want: asked before they run.
const DESTRUCTIVE = new Set([RETENTION_JOB]);

/**
 * "Run now" for one job (SuperAdmin). Busy while the job runs (`running`, which the caller follows
 * by polling); a job that deletes asks first; a refusal (already running) or failure is said here.
 */
export function RunJobButton({
  name,
  running,
  onStarted,
}: {
  name: string;
  running: boolean;
  onStarted?: () => void;
}) {
  const { t } = useTranslation();
  const run = useRunJob();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const destructive = DESTRUCTIVE.has(name);

  const start = async () => {
    setError(null);
    try {
      await run.mutateAsync(name);
      setConfirming(false);
      onStarted?.();
    } catch (failure) {
      const busy = failure instanceof HttpError && failure.status === 409;
      setError(busy ? t('jobs.already_running') : apiErrorText(t, failure));
      // Already running: the dialog has nothing left to ask; the screen follows that run instead.
      if (busy) {
        setConfirming(false);
        onStarted?.();
      }
    }
  };

  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlayerPlay size={14} />}
        loading={running || run.isPending}
        aria-label={t('jobs.run_label', { job: jobTitle(t, name) })}
        onClick={() => {
          if (!destructive) return void start();
          setError(null);
          setConfirming(true);
        }}
        data-testid="run-job"
      >
        {t('jobs.run')}
      </Button>
      {error && !confirming ? (
        <Text size="xs" c="error.7" role="alert" data-testid="run-job-error">
          {error}
        </Text>
      ) : null}
      {destructive ? (
        <ConfirmDialog
          opened={confirming}
          title={t('jobs.confirm.title', { job: jobTitle(t, name) })}
          message={t('jobs.confirm.retention')}
          confirmLabel={t('jobs.confirm.run')}
          cancelLabel={t('common.cancel')}
          loading={run.isPending}
          error={error}
          onConfirm={() => void start()}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </Stack>
  );
}
