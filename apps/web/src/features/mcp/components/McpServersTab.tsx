import type { McpServer } from '@assistente/contracts';
import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { SettingsSection } from '../../../ui/SettingsSection.tsx';
import { isDomainServer, useMcpServers } from '../hooks/useMcpServers.ts';
import { McpServerForm } from './McpServerForm.tsx';
import { McpServerList } from './McpServerList.tsx';
import { ToolPolicySection } from './ToolPolicySection.tsx';

const always = () => true;

/** `/integration` → MCP servers (Admins): the servers whose tools the domain's santitos may use. */
export function McpServersTab() {
  const { t } = useTranslation();
  // The domain's servers: an Admin's own private ones are under Settings → Tools.
  const servers = useMcpServers(isDomainServer);
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
          <McpServerList servers={items} manages={always} onEdit={(server) => setEditing({ server })} />
        )}
      </SettingsSection>
      <ToolPolicySection />

      {editing ? (
        <McpServerForm
          key={editing.server?.id ?? 'new'}
          opened
          scope="domain"
          server={editing.server}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}
