import type { McpServer } from '@assistente/contracts';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { IconAction } from '../../../ui/IconAction.tsx';
import { ItemCard } from '../../../ui/ItemCard.tsx';
import { SettingsSection } from '../../../ui/SettingsSection.tsx';
import { useDeleteMcpServer, useMcpServers, useRefreshMcpServer } from '../hooks/useMcpServers.ts';
import { McpServerForm } from './McpServerForm.tsx';
import { ToolPolicySection } from './ToolPolicySection.tsx';

function ServerCard({
  server,
  onEdit,
  onDelete,
}: {
  server: McpServer;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const refresh = useRefreshMcpServer();
  const failed = server.lastError;
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
      }
      details={server.url}
    >
      {failed ? (
        <Text size="sm" c="red" role="status" data-testid="mcp-server-error">
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
      {refresh.isError ? (
        <Text size="sm" c="red" role="alert">
          {apiErrorText(t, refresh.error)}
        </Text>
      ) : null}
    </ItemCard>
  );
}

/** `/integration` → MCP servers (Admins): the servers whose tools the domain's santitos may use. */
export function McpServersTab() {
  const { t } = useTranslation();
  const servers = useMcpServers();
  const remove = useDeleteMcpServer();
  const confirm = useConfirm<McpServer>();
  const [editing, setEditing] = useState<{ server: McpServer | null } | null>(null);

  return (
    <Stack gap="lg" data-testid="mcp-servers">
      <SettingsSection
        title={t('mcp.title')}
        description={t('mcp.description')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ server: null })}>
            {t('mcp.add')}
          </Button>
        }
        query={servers}
        empty={t('mcp.empty')}
      >
        {(items) => (
          <Stack gap="sm">
            {items.map((server) => (
              <ServerCard
                key={server.id}
                server={server}
                onEdit={() => setEditing({ server })}
                onDelete={() => confirm.ask(server)}
              />
            ))}
          </Stack>
        )}
      </SettingsSection>
      <ToolPolicySection />

      {editing ? (
        <McpServerForm
          key={editing.server?.id ?? 'new'}
          opened
          server={editing.server}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        {...confirm.dialog(
          (target) => remove.mutateAsync(target.id),
          (error) => apiErrorText(t, error),
        )}
        title={t('mcp.delete_title')}
        message={t('mcp.delete_confirm', { name: confirm.target?.displayName ?? '' })}
        confirmLabel={t('common.delete')}
        cancelLabel={t('common.cancel')}
        danger
        loading={remove.isPending}
      />
    </Stack>
  );
}
