import type { McpServer } from '@assistente/contracts';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlugConnected, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { IconAction } from '../../../ui/IconAction.tsx';
import { ItemCard } from '../../../ui/ItemCard.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { type ConnectResult, useMcpConnect } from '../hooks/useMcpConnect.ts';
import { useRefreshMcpServer } from '../hooks/useMcpServers.ts';

const OUTCOME_STATUS: Record<Exclude<ConnectResult, 'closed'>, 'success' | 'warning' | 'error'> = {
  connected: 'success',
  already: 'success',
  denied: 'warning',
  expired: 'warning',
  blocked: 'warning',
  failed: 'error',
};

/**
 * One MCP server: its address, auth, who sees it, and its tools or why it has none. `manage`
 * offers refresh, edit and remove (the Admin's domain servers, a person's own); an OAuth server
 * also offers connecting the caller's account, and forgetting it.
 */
export function McpServerCard({
  server,
  manage,
  onEdit,
  onDelete,
  onDisconnect,
}: {
  server: McpServer;
  manage: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onDisconnect: () => void;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshMcpServer();
  const popup = usePopup();
  const { connect, connecting } = useMcpConnect({
    onDone: (target, result) => {
      const name = target.displayName;
      const outcome = result === 'already' ? 'connected' : result;
      void popup.show({
        status: OUTCOME_STATUS[result],
        title: t(`mcp.connect.outcomes.${outcome}`, { name }),
        ...(outcome === 'connected' ? {} : { description: t(`mcp.connect.outcomes.${outcome}_hint`) }),
      });
    },
    onError: (target, error) =>
      void popup.show({
        status: 'error',
        title: t('mcp.connect.outcomes.failed', { name: target.displayName }),
        description: apiErrorText(t, error),
      }),
  });
  const failed = server.lastError;
  const oauth = server.auth.kind === 'oauth';
  return (
    <ItemCard
      testId="mcp-server-row"
      title={server.displayName}
      badges={
        <>
          {server.auth.kind === 'header' ? (
            <Badge variant="light" size="sm" tt="none">
              {t('mcp.header_badge', { name: server.auth.name })}
            </Badge>
          ) : null}
          {oauth ? (
            <>
              <Badge variant="light" size="sm" tt="none">
                {t('mcp.oauth_badge')}
              </Badge>
              <Badge
                variant="dot"
                color={server.connected ? 'green' : 'neutral'}
                size="sm"
                tt="none"
                data-testid="mcp-server-connection"
              >
                {server.connected ? t('mcp.connect.connected') : t('mcp.connect.not_connected')}
              </Badge>
            </>
          ) : null}
          {!server.enabled ? (
            <Badge variant="light" color="neutral" size="sm">
              {t('mcp.disabled')}
            </Badge>
          ) : null}
          {server.visibleTo.roles.length > 0 ? (
            <Badge variant="light" color="neutral" size="sm">
              {server.visibleTo.roles.map((r) => t(`roles.${r}`)).join(', ')}
            </Badge>
          ) : null}
        </>
      }
      actions={
        manage ? (
          <>
            <IconAction
              label={t('mcp.refresh')}
              icon={<IconRefresh size={16} />}
              onClick={() => refresh.mutate(server.id)}
              loading={refresh.isPending}
            />
            <IconAction label={t('common.edit')} icon={<IconPencil size={16} />} onClick={onEdit} />
            <IconAction label={t('common.delete')} icon={<IconTrash size={16} />} onClick={onDelete} danger />
          </>
        ) : null
      }
      details={server.url}
    >
      {failed ? (
        <Text
          size="sm"
          c={failed.reason === 'not_connected' ? 'dimmed' : 'red'}
          role="status"
          data-testid="mcp-server-error"
        >
          {t(`mcp.failures.${failed.reason}`)}
        </Text>
      ) : null}
      {server.tools.length > 0 ? (
        <Stack gap={4}>
          <Text size="sm">{t('mcp.tools', { count: server.tools.length })}</Text>
          <Group gap={6} data-testid="mcp-server-tools">
            {server.tools.map((tool) => (
              <Badge
                key={tool.name}
                variant="outline"
                size="sm"
                tt="none"
                title={tool.description ?? undefined}
              >
                {tool.name}
              </Badge>
            ))}
          </Group>
        </Stack>
      ) : failed ? null : (
        <Text size="sm" c="dimmed">
          {t('mcp.no_tools')}
        </Text>
      )}
      {oauth ? (
        <Group gap="xs">
          <Button
            size="xs"
            variant={server.connected ? 'default' : 'filled'}
            leftSection={<IconPlugConnected size={14} />}
            loading={connecting}
            onClick={() => void connect(server)}
          >
            {server.connected ? t('mcp.connect.reconnect') : t('mcp.connect.connect')}
          </Button>
          {server.connected ? (
            <Button size="xs" variant="subtle" color="red" onClick={onDisconnect}>
              {t('mcp.connect.disconnect')}
            </Button>
          ) : null}
        </Group>
      ) : null}
      {refresh.isError ? (
        <Text size="sm" c="red" role="alert">
          {apiErrorText(t, refresh.error)}
        </Text>
      ) : null}
    </ItemCard>
  );
}
