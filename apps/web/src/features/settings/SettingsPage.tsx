import { isAdmin, spansDomains, type User } from '@assistente/contracts';
import { Badge, Group, Tabs } from '@mantine/core';
import {
  IconApi,
  IconBrain,
  IconBuilding,
  IconChartBar,
  IconClockPlay,
  IconDatabaseExport,
  IconDevices,
  IconFileCertificate,
  IconFileImport,
  IconHistory,
  IconHourglassLow,
  IconKey,
  IconLink,
  IconSparkles,
  IconTemplate,
  IconTool,
  IconUserCircle,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { useTabParam } from '../../ui/hooks/useTabParam.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { TabStrip } from '../../ui/TabStrip.tsx';
import { ApiKeysTab } from '../apikeys/index.ts';
import { useAccountSession } from '../auth/index.ts';
import { ChatImportTab } from '../chat-import/index.ts';
import { MyDataTab } from '../data-export/index.ts';
import { JobsTab } from '../jobs/index.ts';
import { MyToolsTab } from '../mcp/index.ts';
import { MemoryTab } from '../memory/index.ts';
import { PromptsTab } from '../prompts/index.ts';
import { ProvidersSettings } from '../providers/index.ts';
import { RetentionTab } from '../retention/index.ts';
import { ShareLinksTab } from '../shares/index.ts';
import { MyUsage } from '../usage/index.ts';
import { AuditTab } from './components/AuditTab.tsx';
import { DomainTab } from './components/DomainTab.tsx';
import { PasswordTab } from './components/PasswordTab.tsx';
import { ProfileTab } from './components/ProfileTab.tsx';
import { SessionsTab } from './components/SessionsTab.tsx';
import { TermsTab } from './components/TermsTab.tsx';

export const SETTINGS_TABS = [
  'profile',
  'password',
  'sessions',
  'apiKeys',
  'tools',
  'prompts',
  'shares',
  'memory',
  'import',
  'data',
  'usage',
  'terms',
  'audit',
  'domain',
  'retention',
  'providers',
  'jobs',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

const ICONS: Record<SettingsTab, ComponentType<{ size?: number; stroke?: number }>> = {
  profile: IconUserCircle,
  password: IconKey,
  sessions: IconDevices,
  apiKeys: IconApi,
  tools: IconTool,
  prompts: IconTemplate,
  shares: IconLink,
  memory: IconBrain,
  import: IconFileImport,
  data: IconDatabaseExport,
  usage: IconChartBar,
  terms: IconFileCertificate,
  audit: IconHistory,
  domain: IconBuilding,
  retention: IconHourglassLow,
  providers: IconSparkles,
  jobs: IconClockPlay,
};

const ADMIN_TABS: ReadonlySet<SettingsTab> = new Set(['audit', 'domain', 'retention', 'providers']);

/**
 * The tabs a role sees: everyone their own settings; Admins also the audit log, domain settings,
 * retention and AI providers; a SuperAdmin also the cluster's background jobs.
 */
export function settingsTabs(user: Pick<User, 'role'>): SettingsTab[] {
  const admin = isAdmin(user);
  const superAdmin = spansDomains(user);
  return SETTINGS_TABS.filter((tab) => (tab === 'jobs' ? superAdmin : admin || !ADMIN_TABS.has(tab)));
}

/** `/settings`: profile, password, sessions, API keys, tools, usage, terms; for Admins the audit log, domain settings and AI providers. */
export default function SettingsPage() {
  const { apiUser } = useAccountSession();
  return apiUser ? <Settings user={apiUser} /> : null;
}

function Settings({ user }: { user: User }) {
  const { t } = useTranslation();
  const tabs = settingsTabs(user);
  const { tab, setTab, listRef } = useTabParam(tabs, 'profile');

  return (
    <>
      <PageHeader
        title={t('nav.settings')}
        description={t('pages.settings.description')}
        actions={
          <Badge variant="light" size="lg" radius="sm" data-testid="settings-role">
            {t(`roles.${user.role}`)}
          </Badge>
        }
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <TabStrip listRef={listRef}>
          {tabs.map((name) => {
            const Icon = ICONS[name];
            return (
              <Tabs.Tab key={name} value={name} leftSection={<Icon size={16} stroke={1.7} />}>
                <Group gap={4} wrap="nowrap">
                  {t(
                    name === 'apiKeys'
                      ? 'apiKeys.tab'
                      : name === 'prompts'
                        ? 'prompts.tab'
                        : name === 'shares'
                          ? 'shares.tab'
                          : name === 'retention' || name === 'jobs'
                            ? `${name}.tab`
                            : name === 'data'
                              ? 'dataExport.tab'
                              : `settings.tabs.${name}`,
                  )}
                </Group>
              </Tabs.Tab>
            );
          })}
        </TabStrip>
        <Tabs.Panel value="profile">
          <ProfileTab user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="password">
          <PasswordTab />
        </Tabs.Panel>
        <Tabs.Panel value="sessions">
          <SessionsTab />
        </Tabs.Panel>
        <Tabs.Panel value="apiKeys">
          <ApiKeysTab />
        </Tabs.Panel>
        <Tabs.Panel value="tools">
          <MyToolsTab />
        </Tabs.Panel>
        <Tabs.Panel value="prompts">
          <PromptsTab />
        </Tabs.Panel>
        <Tabs.Panel value="shares">
          <ShareLinksTab />
        </Tabs.Panel>
        <Tabs.Panel value="memory">
          <MemoryTab user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="import">
          <ChatImportTab />
        </Tabs.Panel>
        <Tabs.Panel value="data">
          <MyDataTab />
        </Tabs.Panel>
        <Tabs.Panel value="usage">
          <MyUsage />
        </Tabs.Panel>
        <Tabs.Panel value="terms">
          <TermsTab />
        </Tabs.Panel>
        {tabs.includes('audit') ? (
          <Tabs.Panel value="audit">
            <AuditTab caller={user} />
          </Tabs.Panel>
        ) : null}
        {tabs.includes('domain') ? (
          <Tabs.Panel value="domain">
            <DomainTab caller={user} />
          </Tabs.Panel>
        ) : null}
        {tabs.includes('retention') ? (
          <Tabs.Panel value="retention">
            <RetentionTab caller={user} />
          </Tabs.Panel>
        ) : null}
        {tabs.includes('providers') ? (
          <Tabs.Panel value="providers">
            <ProvidersSettings />
          </Tabs.Panel>
        ) : null}
        {tabs.includes('jobs') ? (
          <Tabs.Panel value="jobs">
            <JobsTab />
          </Tabs.Panel>
        ) : null}
      </Tabs>
    </>
  );
}
