import type { Session } from '@assistente/contracts';
import { Badge, Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrowser, IconCode, IconLogout } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { formatDateTime, formatRelative } from '../../../ui/format.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { signOut } from '../../auth/index.ts';
import { useRevokeAllSessions, useRevokeSession, useSessions } from '../hooks/useSettings.ts';

type Confirm = { kind: 'one'; session: Session } | { kind: 'others' } | { kind: 'everywhere' } | null;

/** The signed-in sessions (browsers and editors), each revocable; sign out elsewhere or everywhere. */
export function SessionsTab() {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const sessions = useSessions();
  const revokeOne = useRevokeSession();
  const revokeAll = useRevokeAllSessions();
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [error, setError] = useState<string | null>(null);

  const leave = async () => {
    await signOut();
    navigate(lp('/auth/login'), { replace: true });
  };

  const run = async () => {
    if (!confirm) return;
    setError(null);
    try {
      if (confirm.kind === 'one') {
        await revokeOne.mutateAsync(confirm.session.id);
        setConfirm(null);
        if (confirm.session.current) await leave();
        else void popup.show({ status: 'success', title: t('settings.sessions.revoked') });
      } else if (confirm.kind === 'others') {
        const result = await revokeAll.mutateAsync(true);
        setConfirm(null);
        void popup.show({
          status: 'success',
          title: t('settings.sessions.others_revoked', { count: result.revoked }),
        });
      } else {
        await revokeAll.mutateAsync(false);
        setConfirm(null);
        await leave();
      }
    } catch (failure) {
      setError(apiErrorText(t, failure));
    }
  };

  const others = (sessions.data ?? []).filter((s) => !s.current).length;
  // Ending the current session from the list is signing out: it is worded as such.
  const confirmKey = confirm
    ? `settings.sessions.confirm.${confirm.kind === 'one' && confirm.session.current ? 'current' : confirm.kind}`
    : null;

  return (
    <Stack gap="lg">
      <Card withBorder radius="lg" padding="lg">
        <Group justify="space-between" align="flex-start" gap="md" mb="md">
          <Stack gap={4} style={{ flex: '1 1 260px' }}>
            <Title order={2} size="h4">
              {t('settings.sessions.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('settings.sessions.description')}
            </Text>
          </Stack>
          <Group gap="sm">
            <Button
              variant="default"
              disabled={others === 0}
              onClick={() => {
                setError(null);
                setConfirm({ kind: 'others' });
              }}
            >
              {t('settings.sessions.revoke_others')}
            </Button>
            <Button
              color="error"
              variant="light"
              leftSection={<IconLogout size={16} />}
              onClick={() => {
                setError(null);
                setConfirm({ kind: 'everywhere' });
              }}
            >
              {t('settings.sessions.sign_out_everywhere')}
            </Button>
          </Group>
        </Group>

        {sessions.isPending ? (
          <ListSkeleton rows={2} height={64} label={t('app.loading')} />
        ) : sessions.isError ? (
          <LoadError title={t('settings.errors.load_failed')} query={sessions} />
        ) : (
          <Stack gap="sm" data-testid="sessions">
            {sessions.data.map((session) => (
              <Card key={session.id} withBorder radius="md" padding="sm" data-testid="session-row">
                <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                  <Group wrap="nowrap" gap="sm" align="flex-start" style={{ minWidth: 0 }}>
                    <ThemeIcon
                      variant="light"
                      size={36}
                      radius="md"
                      color={session.kind === 'editor' ? 'secondary' : 'primary'}
                    >
                      {session.kind === 'editor' ? <IconCode size={20} /> : <IconBrowser size={20} />}
                    </ThemeIcon>
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Group gap={6}>
                        <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {session.name || t(`settings.sessions.kind.${session.kind}`)}
                        </Text>
                        {session.current ? (
                          <Badge size="sm" variant="light" color="green" radius="sm">
                            {t('settings.sessions.current')}
                          </Badge>
                        ) : null}
                        <Badge size="sm" variant="outline" color="neutral.6" radius="sm" tt="none">
                          {t(`settings.sessions.kind.${session.kind}`)}
                        </Badge>
                      </Group>
                      <Text size="xs" c="dimmed">
                        {t('settings.sessions.last_used', {
                          when: formatRelative(session.lastUsedAt, i18n.language),
                        })}
                        {session.ip ? ` · ${session.ip}` : ''}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t('settings.sessions.started', {
                          when: formatDateTime(session.createdAt, i18n.language),
                        })}
                      </Text>
                    </Stack>
                  </Group>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="error"
                    onClick={() => {
                      setError(null);
                      setConfirm({ kind: 'one', session });
                    }}
                    aria-label={t('settings.sessions.revoke_label', {
                      name: session.name || t(`settings.sessions.kind.${session.kind}`),
                    })}
                  >
                    {t(session.current ? 'settings.sessions.sign_out' : 'settings.sessions.revoke')}
                  </Button>
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </Card>

      <ConfirmDialog
        opened={confirm !== null}
        title={confirmKey ? t(`${confirmKey}.title`) : ''}
        message={confirmKey ? t(`${confirmKey}.message`) : ''}
        confirmLabel={confirmKey ? t(`${confirmKey}.confirm`) : ''}
        cancelLabel={t('common.cancel')}
        loading={revokeOne.isPending || revokeAll.isPending}
        error={error}
        onConfirm={() => void run()}
        onClose={() => setConfirm(null)}
      />
    </Stack>
  );
}
