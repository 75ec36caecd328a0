import { type Domain, formatCnpj, type User } from '@assistente/contracts';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Menu,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconBuildingCommunity,
  IconDots,
  IconPencil,
  IconPlus,
  IconSearch,
  IconSearchOff,
  IconTrash,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { usePopup } from '../../app/popup/usePopup.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { apiErrorCode, apiErrorCount, apiErrorText } from '../../ui/apiError.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyPanel } from '../../ui/EmptyPanel.tsx';
import { useIsMobile } from '../../ui/hooks/useIsMobile.ts';
import { ListSkeleton, LoadError } from '../../ui/LoadState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { useAccountSession } from '../auth/hooks/useAccountSession.ts';
import { DomainBadges } from './components/DomainBadges.tsx';
import { DomainDialog } from './components/DomainDialog.tsx';
import { OwnDomainCard } from './components/OwnDomainCard.tsx';
import { useDeleteDomain, useDomain, useDomainList } from './hooks/useDomains.ts';

/** `/domains`: every domain for a SuperAdmin (full CRUD); an Admin sees their own, read-only. */
export default function DomainsPage() {
  const { apiUser } = useAccountSession();
  if (!apiUser) return null;
  return apiUser.role === 'SuperAdmin' ? <AllDomains caller={apiUser} /> : <OwnDomain caller={apiUser} />;
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
        <LoadError
          title={t('domains.errors.load_failed')}
          message={apiErrorText(t, query.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ListSkeleton rows={1} height={160} label={t('app.loading')} />
      )}
    </>
  );
}

function DomainActions({
  domain,
  onEdit,
  onRemove,
}: {
  domain: Domain;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" shadow="md" width={200} withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="neutral.7"
          size="lg"
          aria-label={t('domains.actions.label', { name: domain.displayName })}
        >
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} />} onClick={onEdit}>
          {t('common.edit')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="error" leftSection={<IconTrash size={16} />} onClick={onRemove}>
          {t('common.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
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
  const [removing, setRemoving] = useState<Domain | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const remove = useDeleteDomain();

  const askRemove = (domain: Domain) => {
    setRemoveError(null);
    setRemoving(domain);
  };

  const runRemove = async () => {
    if (!removing) return;
    setRemoveError(null);
    try {
      await remove.mutateAsync(removing);
      void popup.show({ status: 'success', title: t('domains.deleted', { name: removing.displayName }) });
      setRemoving(null);
    } catch (error) {
      const users = apiErrorCount(error, 'users');
      setRemoveError(
        apiErrorCode(error) === 'CONFLICT' && users !== null
          ? t('domains.errors.has_users', { name: removing.displayName, count: users })
          : apiErrorText(t, error),
      );
    }
  };

  const cnpj = (domain: Domain) => (domain.cnpj ? formatCnpj(domain.cnpj) : '—');

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
        <TextInput
          type="search"
          placeholder={t('domains.search_placeholder')}
          aria-label={t('common.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: '1 1 260px' }}
        />
      </Group>

      {list.isPending ? (
        <ListSkeleton label={t('app.loading')} />
      ) : list.isError ? (
        <LoadError
          title={t('domains.errors.load_failed')}
          message={apiErrorText(t, list.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void list.refetch()}
        />
      ) : domains.length === 0 ? (
        q ? (
          <EmptyPanel
            icon={<IconSearchOff size={28} stroke={1.6} />}
            title={t('domains.no_results_title')}
            description={t('domains.no_results_description')}
          />
        ) : (
          <EmptyPanel
            icon={<IconBuildingCommunity size={28} stroke={1.6} />}
            title={t('pages.domains.empty_title')}
            description={t('pages.domains.empty_description')}
          />
        )
      ) : (
        <Stack gap="md">
          {mobile ? (
            <Stack gap="sm" data-testid="domains-cards">
              {domains.map((domain) => (
                <Card key={domain._id} withBorder radius="lg" padding="md" data-testid="domain-row">
                  <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {domain.displayName}
                      </Text>
                      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {domain._id}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t('domains.fields.cnpj')}: {cnpj(domain)}
                      </Text>
                    </Stack>
                    <DomainActions
                      domain={domain}
                      onEdit={() => setDialog({ domain })}
                      onRemove={() => askRemove(domain)}
                    />
                  </Group>
                  <Group mt="sm">
                    <DomainBadges domain={domain} />
                  </Group>
                </Card>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer type="native" minWidth={720}>
              <Table verticalSpacing="sm" highlightOnHover data-testid="domains-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('domains.fields.name')}</Table.Th>
                    <Table.Th>{t('domains.fields.domain')}</Table.Th>
                    <Table.Th>{t('domains.fields.cnpj')}</Table.Th>
                    <Table.Th>{t('users.fields.status')}</Table.Th>
                    <Table.Th w={56}>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {domains.map((domain) => (
                    <Table.Tr key={domain._id} data-testid="domain-row">
                      <Table.Td>
                        <Text fw={500} size="sm">
                          {domain.displayName}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {domain._id}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" ff="monospace">
                          {cnpj(domain)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <DomainBadges domain={domain} />
                      </Table.Td>
                      <Table.Td>
                        <DomainActions
                          domain={domain}
                          onEdit={() => setDialog({ domain })}
                          onRemove={() => askRemove(domain)}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('common.showing', { shown: domains.length, total })}
            </Text>
            {list.hasNextPage ? (
              <Button
                variant="light"
                onClick={() => void list.fetchNextPage()}
                loading={list.isFetchingNextPage}
              >
                {t('common.load_more')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      )}

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
        opened={removing !== null}
        title={t('domains.confirm.remove.title')}
        message={
          removing
            ? t('domains.confirm.remove.message', { name: removing.displayName, domain: removing._id })
            : ''
        }
        confirmLabel={t('domains.confirm.remove.confirm')}
        cancelLabel={t('common.cancel')}
        loading={remove.isPending}
        error={removeError}
        onConfirm={() => void runRemove()}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}
