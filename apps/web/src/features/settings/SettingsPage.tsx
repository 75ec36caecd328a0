import { hasRole, type User } from '@assistente/contracts';
import { Badge, Group, ScrollArea, Tabs } from '@mantine/core';
import {
  IconBuilding,
  IconDevices,
  IconFileCertificate,
  IconHistory,
  IconKey,
  IconSparkles,
  IconUserCircle,
} from '@tabler/icons-react';
import { type ComponentType, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../lib/i18n/index.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { useAccountSession } from '../auth/hooks/useAccountSession.ts';
import { ProvidersSettings } from '../providers/components/ProvidersSettings.tsx';
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
  'terms',
  'audit',
  'domain',
  'providers',
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

const ICONS: Record<SettingsTab, ComponentType<{ size?: number; stroke?: number }>> = {
  profile: IconUserCircle,
  password: IconKey,
  sessions: IconDevices,
  terms: IconFileCertificate,
  audit: IconHistory,
  domain: IconBuilding,
  providers: IconSparkles,
};

/** The tabs a role sees: everyone their own settings; Admins also the audit log, domain settings and AI providers. */
export function settingsTabs(user: Pick<User, 'role'>): SettingsTab[] {
  const admin = hasRole(user.role, 'Admin');
  return SETTINGS_TABS.filter((tab) => admin || (tab !== 'audit' && tab !== 'domain' && tab !== 'providers'));
}

/** `/settings`: profile, password, sessions, terms; for Admins the audit log, domain settings and AI providers. */
export default function SettingsPage() {
  const { apiUser } = useAccountSession();
  return apiUser ? <Settings user={apiUser} /> : null;
}

function Settings({ user }: { user: User }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tabs = settingsTabs(user);
  const requested = params.get('tab');
  const tab = tabs.find((candidate) => candidate === requested) ?? 'profile';
  // On a phone the tabs scroll sideways: a link to a tab at the end (the no-provider notice's to
  // AI models) must not open with it out of sight.
  const list = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the selected tab
  useEffect(() => {
    list.current
      ?.querySelector('[role="tab"][aria-selected="true"]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [tab]);

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
      <Tabs
        value={tab}
        onChange={(value) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              next.set('tab', value ?? 'profile');
              return next;
            },
            { replace: true },
          )
        }
        keepMounted={false}
      >
        <ScrollArea type="never" mb="lg">
          <Tabs.List ref={list} style={{ flexWrap: 'nowrap' }}>
            {tabs.map((name) => {
              const Icon = ICONS[name];
              return (
                <Tabs.Tab key={name} value={name} leftSection={<Icon size={16} stroke={1.7} />}>
                  <Group gap={4} wrap="nowrap">
                    {t(`settings.tabs.${name}`)}
                  </Group>
                </Tabs.Tab>
              );
            })}
          </Tabs.List>
        </ScrollArea>
        <Tabs.Panel value="profile">
          <ProfileTab user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="password">
          <PasswordTab />
        </Tabs.Panel>
        <Tabs.Panel value="sessions">
          <SessionsTab />
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
        {tabs.includes('providers') ? (
          <Tabs.Panel value="providers">
            <ProvidersSettings />
          </Tabs.Panel>
        ) : null}
      </Tabs>
    </>
  );
}
