import type { McpServer } from '@assistente/contracts';
import { Stack } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { useDeleteMcpServer, useDisconnectMcpServer } from '../hooks/useMcpServers.ts';
import { McpServerCard } from './McpServerCard.tsx';

/** Server cards, with the confirmations before removing one or forgetting a connection. */
export function McpServerList({
  servers,
  manages,
  onEdit,
}: {
  servers: McpServer[];
  /** Whether this screen offers editing a server (else only connecting to it). */
  manages: (server: McpServer) => boolean;
  onEdit: (server: McpServer) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteMcpServer();
  const disconnect = useDisconnectMcpServer();
  const confirmDelete = useConfirm<McpServer>();
  const confirmDisconnect = useConfirm<McpServer>();
  return (
    <>
      <Stack gap="sm">
        {servers.map((server) => (
          <McpServerCard
            key={server.id}
            server={server}
            manage={manages(server)}
            onEdit={() => onEdit(server)}
            onDelete={() => confirmDelete.ask(server)}
            onDisconnect={() => confirmDisconnect.ask(server)}
          />
        ))}
      </Stack>
      <ConfirmDialog
        {...confirmDelete.dialog(
          (target) => remove.mutateAsync(target.id),
          (error) => apiErrorText(t, error),
        )}
        title={t('mcp.delete_title')}
        message={t('mcp.delete_confirm', { name: confirmDelete.target?.displayName ?? '' })}
        confirmLabel={t('common.delete')}
        cancelLabel={t('common.cancel')}
        danger
        loading={remove.isPending}
      />
      <ConfirmDialog
        {...confirmDisconnect.dialog(
          (target) => disconnect.mutateAsync(target.id),
          (error) => apiErrorText(t, error),
        )}
        title={t('mcp.connect.disconnect_title')}
        message={t('mcp.connect.disconnect_confirm', { name: confirmDisconnect.target?.displayName ?? '' })}
        confirmLabel={t('mcp.connect.disconnect')}
        cancelLabel={t('common.cancel')}
        danger
        loading={disconnect.isPending}
      />
    </>
  );
}
