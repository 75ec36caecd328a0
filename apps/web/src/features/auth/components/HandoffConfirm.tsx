import { Anchor, Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconPlugConnected } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import type { EditorTarget } from '../handoffQuery.ts';

/**
 * Before the editor gets the code: desktop VS Code is opened from the user's click ("Open VS
 * Code"); a browser-hosted editor asks for the code at its own address, so the user confirms the
 * origin first ("Connect VS Code at <origin>?"), or learns that the server does not allow it.
 */
export default function HandoffConfirm({
  target,
  onConfirm,
}: {
  target: EditorTarget;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const allowed = target.kind !== 'refused';
  const [title, message] =
    target.kind === 'deep-link'
      ? [t('pages_login.redirect_vscode.open_title'), t('pages_login.redirect_vscode.open_message')]
      : target.kind === 'callback'
        ? [
            t('pages_login.redirect_vscode.confirm_title', { origin: target.origin }),
            t('pages_login.redirect_vscode.confirm_message'),
          ]
        : [
            t('pages_login.redirect_vscode.refused_title'),
            t('pages_login.redirect_vscode.refused_message', { origin: target.origin }),
          ];
  return (
    <Stack
      align="center"
      gap="md"
      py="lg"
      ta="center"
      role={allowed ? 'group' : 'alert'}
      aria-labelledby="handoff-confirm"
    >
      <ThemeIcon size={56} radius="xl" color={allowed ? 'blue' : 'error'} variant="light">
        {allowed ? <IconPlugConnected size={30} /> : <IconAlertCircle size={30} />}
      </ThemeIcon>
      <Title order={2} size="h3" id="handoff-confirm" style={{ overflowWrap: 'anywhere' }}>
        {title}
      </Title>
      <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {message}
      </Text>
      {allowed ? (
        <Group justify="center">
          <Button component={Link} to={lp('/')} variant="default">
            {t('pages_login.redirect_vscode.cancel')}
          </Button>
          <Button onClick={onConfirm}>
            {target.kind === 'deep-link'
              ? t('pages_login.redirect_vscode.open')
              : t('pages_login.redirect_vscode.confirm')}
          </Button>
        </Group>
      ) : (
        <Anchor component={Link} to={lp('/')} size="sm">
          {t('pages_login.redirect_vscode.continue')}
        </Anchor>
      )}
    </Stack>
  );
}
