import { Anchor, Button, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';

/** The login page during the editor handoff: opening, opened, or failed (with a retry). */
export default function HandoffProgress({
  status,
  onRetry,
}: {
  status: 'running' | 'opened' | 'failed';
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  if (status === 'running') {
    return (
      <Stack align="center" gap="md" py="xl" role="status" aria-live="polite" data-testid="handoff-running">
        <Loader size="lg" />
        <Text fw={600} size="lg">
          {t('pages_login.redirect_vscode.opening')}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack align="center" gap="md" py="lg" ta="center" role="status" aria-live="polite">
      {status === 'opened' ? (
        <ThemeIcon size={56} radius="xl" color="green" variant="light">
          <IconCheck size={30} />
        </ThemeIcon>
      ) : (
        <ThemeIcon size={56} radius="xl" color="error" variant="light">
          <IconAlertCircle size={30} />
        </ThemeIcon>
      )}
      <Title order={2} size="h3">
        {status === 'opened'
          ? t('pages_login.redirect_vscode.done_title')
          : t('pages_login.redirect_vscode.error_message.title')}
      </Title>
      <Text c="dimmed">
        {status === 'opened'
          ? t('pages_login.redirect_vscode.done_message')
          : t('pages_login.redirect_vscode.error_message.description')}
      </Text>
      <Button onClick={onRetry} variant={status === 'opened' ? 'default' : 'filled'}>
        {status === 'opened' ? t('pages_login.redirect_vscode.open_again') : t('popup.try_again')}
      </Button>
      {status === 'opened' && (
        <Anchor href="/downloads/assistente-vscode.vsix" download size="sm">
          {t('pages_login.redirect_vscode.download')}
        </Anchor>
      )}
      <Anchor component={Link} to={lp('/')} size="sm">
        {t('pages_login.redirect_vscode.continue')}
      </Anchor>
    </Stack>
  );
}
