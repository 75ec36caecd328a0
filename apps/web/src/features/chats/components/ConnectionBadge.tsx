import { ActionIcon, Badge, Button, Group } from '@mantine/core';
import { IconPlugConnectedX, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useAgents, useConnectionState } from '../hooks/useAgents.ts';

/** Says so when the agents websocket is not ready (sending waits for it), with a way to retry now. */
export function ConnectionBadge() {
  const { t } = useTranslation();
  const state = useConnectionState();
  const agents = useAgents();
  if (state === 'ready' || state === 'idle') return null;
  const retry = state === 'reconnecting' || state === 'offline';
  return (
    <Group
      gap={4}
      wrap="nowrap"
      role="status"
      aria-live="polite"
      data-testid="connection-state"
      data-state={state}
    >
      <Badge
        color={state === 'connecting' ? 'neutral' : 'accent'}
        variant="light"
        leftSection={<IconPlugConnectedX size={12} />}
      >
        {t(`chats.connection.${state}`)}
      </Badge>
      {retry ? (
        <>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconRefresh size={12} />}
            onClick={() => agents.socket.reconnectNow()}
            visibleFrom="sm"
          >
            {t('chats.connection.retry')}
          </Button>
          {/* On a phone the words would leave the chat's title a letter or two. */}
          <ActionIcon
            variant="subtle"
            size="sm"
            onClick={() => agents.socket.reconnectNow()}
            aria-label={t('chats.connection.retry')}
            title={t('chats.connection.retry')}
            hiddenFrom="sm"
          >
            <IconRefresh size={14} />
          </ActionIcon>
        </>
      ) : null}
    </Group>
  );
}
