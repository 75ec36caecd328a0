import { spansDomains } from '@assistente/contracts';
import { Tabs } from '@mantine/core';
import { IconApi, IconBook2, IconCode, IconKey, IconPlugConnected } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { useTabParam } from '../../ui/hooks/useTabParam.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { TabStrip } from '../../ui/TabStrip.tsx';
import { DomainApiKeys } from '../apikeys/index.ts';
import { useAccountSession } from '../auth/index.ts';
import { EmbedsTab } from '../embed-admin/index.ts';
import { KnowledgePanel } from '../knowledge/index.ts';
import { McpServersTab } from '../mcp/index.ts';
import { SsoSettings } from '../sso/index.ts';

const TABS = [
  { name: 'knowledge', label: 'knowledge.tab', Icon: IconBook2, Panel: KnowledgePanel },
  { name: 'mcp', label: 'mcp.tab', Icon: IconPlugConnected, Panel: McpServersTab },
  { name: 'embeds', label: 'embeds.tab', Icon: IconCode, Panel: EmbedsTab },
  { name: 'api-keys', label: 'apiKeys.tab', Icon: IconApi, Panel: DomainApiKeys },
  // Sign-in providers serve the whole instance: only SuperAdmins see their tab.
  { name: 'sso', label: 'sso.title', Icon: IconKey, Panel: SsoSettings, superAdminOnly: true },
] as const;

/** `/integration` (premium, Admin+): knowledge sources, MCP servers, embeds, API keys; single sign-on for SuperAdmins. */
export default function IntegrationPage() {
  const { t } = useTranslation();
  const { apiUser } = useAccountSession();
  const superAdmin = apiUser ? spansDomains(apiUser) : false;
  const tabs = TABS.filter((tab) => superAdmin || !('superAdminOnly' in tab));
  const { tab, setTab, listRef } = useTabParam(
    tabs.map(({ name }) => name),
    'knowledge',
  );
  return (
    <>
      <PageHeader title={t('nav.integration')} description={t('pages.integration.description')} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <TabStrip listRef={listRef}>
          {tabs.map(({ name, label, Icon }) => (
            <Tabs.Tab key={name} value={name} leftSection={<Icon size={16} stroke={1.7} />}>
              {t(label)}
            </Tabs.Tab>
          ))}
        </TabStrip>
        {tabs.map(({ name, Panel }) => (
          <Tabs.Panel key={name} value={name}>
            <Panel />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
