import { type Domain, formatCnpj, spansDomains, type User } from '@assistente/contracts';
import { Button, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBuildingCommunity, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { apiErrorCode, apiErrorCount, apiErrorText } from '../../ui/apiError.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataList, ListSearch, RowActions } from '../../ui/DataList.tsx';
import { useConfirm } from '../../ui/hooks/useConfirm.ts';
import { useIsMobile } from '../../ui/hooks/useIsMobile.ts';
import { ListSkeleton, LoadError } from '../../ui/LoadState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { usePopup } from '../../ui/popup/usePopup.ts';
import { useAccountSession } from '../auth/index.ts';
import { DomainBadges } from './components/DomainBadges.tsx';
import { DomainDialog } from './components/DomainDialog.tsx';
import { OwnDomainCard } from './components/OwnDomainCard.tsx';
import { useDeleteDomain, useDomain, useDomainList } from './hooks/useDomains.ts';

/** `/domains`: every domain for a SuperAdmin (full CRUD); an Admin sees their own, read-only. */
export default function DomainsPage() {
  const { apiUser } = useAccountSession();
  if (!apiUser) return null;
  return spansDomains(apiUser) ? <AllDomains caller={apiUser} /> : <OwnDomain caller={apiUser} />;
}

function OwnDomain({ caller }: { caller: User }) {
  const { t } = useTranslation();
  const { domain: sessionDomain } = useAccountSession();
  const query = useDomain(caller.domain);
  const domain = query.data ?? sessionDomain;
  return (
    <>
      <PageHeader title={t('nav.domains')} description={t('domains.description_own')} />
      {domain ? (
        <OwnDomainCard domain={domain} />
      ) : query.isError ? (
        <LoadError title={t('domains.errors.load_failed')} query={query} />
      ) : (
        <ListSkeleton rows={1} height={160} label={t('app.loading')} />
      )}
    </>
  );
}

function AllDomains({ caller }: { caller: User }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const mobile = useIsMobile();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const list = useDomainList({ q });
  const domains = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const [dialog, setDialog] = useState<{ domain: Domain | null } | null>(null);
  const removing = useConfirm<Domain>();
  const remove = useDeleteDomain();

  const runRemove = () =>
    removing.run(
      async (domain) => {
        await remove.mutateAsync(domain);
        void popup.show({ status: 'success', title: t('domains.deleted', { name: domain.displayName }) });
      },
      (error, domain) => {
        const users = apiErrorCount(error, 'users');
        return apiErrorCode(error) === 'CONFLICT' && users !== null
          ? t('domains.errors.has_users', { name: domain.displayName, count: users })
          : apiErrorText(t, error);
      },
    );

  const cnpj = (domain: Domain) => (domain.cnpj ? formatCnpj(domain.cnpj) : '—');
  const actions = (domain: Domain) => (
    <RowActions
      label={t('domains.actions.label', { name: domain.displayName })}
      width={200}
      actions={[
        {
          key: 'edit',
          label: t('common.edit'),
          icon: <IconPencil size={16} />,
          onClick: () => setDialog({ domain }),
        },
        {
          key: 'remove',
          label: t('common.delete'),
          icon: <IconTrash size={16} />,
          danger: true,
          onClick: () => removing.ask(domain),
        },
      ]}
    />
  );

  return (
    <>
      <PageHeader
        title={t('nav.domains')}
        description={t('pages.domains.description')}
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setDialog({ domain: null })}>
            {t('domains.create.open')}
          </Button>
        }
      />
      <Group gap="sm" mb="md">
        <ListSearch
          value={search}
          onChange={setSearch}
          placeholder={t('domains.search_placeholder')}
          mobile={false}
        />
      </Group>

      <DataList
        query={list}
        rows={domains}
        total={total}
        rowKey={(domain) => domain._id}
        columns={[
          {
            key: 'name',
            title: t('domains.fields.name'),
            cell: (domain) => (
              <Text fw={500} size="sm">
                {domain.displayName}
              </Text>
            ),
          },
          {
            key: 'domain',
            title: t('domains.fields.domain'),
            cell: (domain) => (
              <Text size="sm" c="dimmed">
                {domain._id}
              </Text>
            ),
          },
          {
            key: 'cnpj',
            title: t('domains.fields.cnpj'),
            cell: (domain) => (
              <Text size="sm" ff="monospace">
                {cnpj(domain)}
              </Text>
            ),
          },
          {
            key: 'status',
            title: t('users.fields.status'),
            cell: (domain) => <DomainBadges domain={domain} />,
          },
        ]}
        card={(domain) => ({
          title: domain.displayName,
          details: (
            <>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {domain._id}
              </Text>
              <Text size="xs" c="dimmed">
                {t('domains.fields.cnpj')}: {cnpj(domain)}
              </Text>
            </>
          ),
          footer: <DomainBadges domain={domain} />,
        })}
        actions={actions}
        mobile={mobile}
        testIds={{ table: 'domains-table', cards: 'domains-cards', row: 'domain-row' }}
        minWidth={720}
        loadFailedTitle={t('domains.errors.load_failed')}
        filtered={q !== ''}
        noResults={{ title: t('domains.no_results_title'), description: t('domains.no_results_description') }}
        empty={{
          icon: <IconBuildingCommunity size={28} stroke={1.6} />,
          title: t('pages.domains.empty_title'),
          description: t('pages.domains.empty_description'),
        }}
      />

      <DomainDialog
        opened={dialog !== null}
        domain={dialog?.domain ?? null}
        ownDomain={caller.domain}
        onClose={() => setDialog(null)}
        onSaved={(saved, created) => {
          setDialog(null);
          void popup.show({
            status: 'success',
            title: t(created ? 'domains.created' : 'domains.saved', { name: saved.displayName }),
            ...(created ? { description: t('domains.created_hint') } : {}),
          });
        }}
      />
      <ConfirmDialog
        opened={removing.target !== null}
        title={t('domains.confirm.remove.title')}
        message={
          removing.target
            ? t('domains.confirm.remove.message', {
                name: removing.target.displayName,
                domain: removing.target._id,
              })
            : ''
        }
        confirmLabel={t('domains.confirm.remove.confirm')}
        cancelLabel={t('common.cancel')}
        loading={remove.isPending}
        error={removing.error}
        onConfirm={() => void runRemove()}
        onClose={removing.close}
      />
    </>
  );
}
