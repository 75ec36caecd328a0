import { spansDomains, type User } from '@assistente/contracts';
import { Tabs } from '@mantine/core';
import { IconChartBar, IconCoin, IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { useTabParam } from '../../ui/hooks/useTabParam.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { TabStrip } from '../../ui/TabStrip.tsx';
import { useAccountSession } from '../auth/index.ts';
import { DomainSelect } from '../domains/index.ts';
import { BudgetsTab } from './components/BudgetsTab.tsx';
import { PricesTab } from './components/PricesTab.tsx';
import { SpendTab } from './components/SpendTab.tsx';

const TABS = [
  { name: 'spend', Icon: IconChartBar },
  { name: 'budgets', Icon: IconCoin },
  // Prices are the instance's, set by SuperAdmins; Admins read them in the spend figures only.
  { name: 'prices', Icon: IconReceipt, superAdminOnly: true },
] as const;

/** `/usage` (Admin+): what the domain spends, its budgets; prices for SuperAdmins, who pick the domain. */
export default function UsagePage() {
  const { apiUser } = useAccountSession();
  return apiUser ? <Usage caller={apiUser} /> : null;
}

function Usage({ caller }: { caller: User }) {
  const { t } = useTranslation();
  const superAdmin = spansDomains(caller);
  const [domain, setDomain] = useState(caller.domain);
  const tabs = TABS.filter((tab) => superAdmin || !('superAdminOnly' in tab));
  const { tab, setTab, listRef } = useTabParam(
    tabs.map(({ name }) => name),
    'spend',
  );
  return (
    <>
      <PageHeader
        title={t('nav.usage')}
        description={t('pages.usage.description')}
        actions={
          superAdmin && tab !== 'prices' ? (
            <DomainSelect value={domain} onChange={setDomain} label={t('usage.domain')} w={240} />
          ) : undefined
        }
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <TabStrip listRef={listRef}>
          {tabs.map(({ name, Icon }) => (
            <Tabs.Tab key={name} value={name} leftSection={<Icon size={16} stroke={1.7} />}>
              {t(`usage.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </TabStrip>
        <Tabs.Panel value="spend">
          <SpendTab domain={domain} />
        </Tabs.Panel>
        <Tabs.Panel value="budgets">
          <BudgetsTab domain={domain} />
        </Tabs.Panel>
        {superAdmin ? (
          <Tabs.Panel value="prices">
            <PricesTab />
          </Tabs.Panel>
        ) : null}
      </Tabs>
    </>
  );
}
