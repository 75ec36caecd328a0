import type { McpServer } from '@assistente/contracts';
import { Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { SettingsSection } from '../../../ui/SettingsSection.tsx';
import { useMayAddServers, useMcpServers } from '../hooks/useMcpServers.ts';
import { McpServerForm } from './McpServerForm.tsx';
import { McpServerList } from './McpServerList.tsx';

const isOwn = (server: McpServer) => server.scope === 'user';
/**
 * The caller's own servers, and the domain's they may connect to: OAuth and on. (A non-Admin's
 * list has no other domain servers; an Admin manages those in Integration.)
 */
const isMine = (server: McpServer) => isOwn(server) || (server.auth.kind === 'oauth' && server.enabled);

/** Settings → Tools: connecting one's accounts to the domain's OAuth servers, and one's own servers. */
export function MyToolsTab() {
  const { t } = useTranslation();
  const servers = useMcpServers(isMine);
  const mayAdd = useMayAddServers();
  const [editing, setEditing] = useState<{ server: McpServer | null } | null>(null);

  return (
    <Stack gap="lg" data-testid="my-tools">
      <SettingsSection
        title={t('mcp.mine.title')}
        description={t('mcp.mine.description')}
        actions={
          mayAdd.data ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ server: null })}>
              {t('mcp.mine.add')}
            </Button>
          ) : null
        }
        query={servers}
        empty={t('mcp.mine.empty')}
      >
        {(items) => (
          <McpServerList servers={items} manages={isOwn} onEdit={(server) => setEditing({ server })} />
        )}
      </SettingsSection>
      {mayAdd.data === false ? (
        <Text size="sm" c="dimmed" data-testid="my-tools-not-allowed">
          {t('mcp.mine.not_allowed')}
        </Text>
      ) : null}

      {editing ? (
        <McpServerForm
          key={editing.server?.id ?? 'new'}
          opened
          scope="user"
          server={editing.server}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}
