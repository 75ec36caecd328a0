import type { Department, User } from '@assistente/contracts';
import {
  ActionIcon,
  Badge,
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
  IconDots,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconSearch,
  IconSearchOff,
  IconSitemap,
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
import { DomainSelect } from '../domains/components/DomainSelect.tsx';
import { DepartmentDialog } from './components/DepartmentDialog.tsx';
import { useDeleteDepartment, useDepartmentList, useUpdateDepartment } from './hooks/useDepartments.ts';

type Confirm = { kind: 'deactivate' | 'remove'; department: Department } | null;

/** `/departments` (Admin+): the domain's departments; a SuperAdmin picks the domain. */
export default function DepartmentsPage() {
  const { apiUser } = useAccountSession();
  return apiUser ? <Departments caller={apiUser} /> : null;
}

function DepartmentActions({
  department,
  onAction,
}: {
  department: Department;
  onAction: (action: 'rename' | 'deactivate' | 'reactivate' | 'remove', department: Department) => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" shadow="md" width={210} withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="neutral.7"
          size="lg"
          aria-label={t('departments.actions.label', { name: department.displayName })}
        >
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onAction('rename', department)}>
          {t('departments.actions.rename')}
        </Menu.Item>
        {department.active ? (
          <Menu.Item
            leftSection={<IconPlayerPause size={16} />}
            onClick={() => onAction('deactivate', department)}
          >
            {t('departments.actions.deactivate')}
          </Menu.Item>
        ) : (
          <Menu.Item
            leftSection={<IconPlayerPlay size={16} />}
            onClick={() => onAction('reactivate', department)}
          >
            {t('departments.actions.reactivate')}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item
          color="error"
          leftSection={<IconTrash size={16} />}
          onClick={() => onAction('remove', department)}
        >
          {t('common.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function Departments({ caller }: { caller: User }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const mobile = useIsMobile();
  const superAdmin = caller.role === 'SuperAdmin';
  const [domain, setDomain] = useState(caller.domain);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const list = useDepartmentList({ domain: superAdmin ? domain : caller.domain, q });
  const departments = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;

  const [dialog, setDialog] = useState<{ department: Department | null } | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const update = useUpdateDepartment();
  const remove = useDeleteDepartment();
  const targetDomain = superAdmin ? domain : caller.domain;

  const onAction = (action: 'rename' | 'deactivate' | 'reactivate' | 'remove', department: Department) => {
    setConfirmError(null);
    if (action === 'rename') setDialog({ department });
    else if (action === 'reactivate')
      update.mutate(
        { id: department._id, body: { active: true } },
        {
          onSuccess: () =>
            void popup.show({
              status: 'success',
              title: t('departments.reactivated', { name: department.displayName }),
            }),
          onError: (error) =>
            void popup.show({
              status: 'error',
              title: t('departments.errors.update_failed'),
              description: apiErrorText(t, error),
            }),
        },
      );
    else setConfirm({ kind: action, department });
  };

  const runConfirm = async () => {
    if (!confirm) return;
    const { kind, department } = confirm;
    setConfirmError(null);
    try {
      if (kind === 'deactivate') {
        await update.mutateAsync({ id: department._id, body: { active: false } });
        void popup.show({
          status: 'success',
          title: t('departments.deactivated', { name: department.displayName }),
        });
      } else {
        await remove.mutateAsync(department);
        void popup.show({
          status: 'success',
          title: t('departments.deleted', { name: department.displayName }),
        });
      }
      setConfirm(null);
    } catch (error) {
      const users = apiErrorCount(error, 'users');
      setConfirmError(
        kind === 'remove' && apiErrorCode(error) === 'CONFLICT'
          ? t('departments.errors.has_users', { name: department.displayName, count: users ?? '?' })
          : apiErrorText(t, error),
      );
    }
  };

  const statusBadge = (department: Department) => (
    <Badge variant="light" color={department.active ? 'green' : 'neutral'} radius="sm">
      {t(department.active ? 'common.active' : 'common.inactive')}
    </Badge>
  );

  return (
    <>
      <PageHeader
        title={t('nav.departments')}
        description={t('pages.departments.description')}
        actions={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setDialog({ department: null })}>
            {t('departments.create.open')}
          </Button>
        }
      />
      <Group gap="sm" mb="md" wrap="wrap">
        <TextInput
          type="search"
          placeholder={t('departments.search_placeholder')}
          aria-label={t('common.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: mobile ? '1 1 100%' : '1 1 260px' }}
        />
        {superAdmin ? (
          <DomainSelect
            value={domain}
            onChange={(next) => next && setDomain(next)}
            w={mobile ? '100%' : 240}
          />
        ) : null}
      </Group>

      {list.isPending ? (
        <ListSkeleton label={t('app.loading')} />
      ) : list.isError ? (
        <LoadError
          title={t('departments.errors.load_failed')}
          message={apiErrorText(t, list.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void list.refetch()}
        />
      ) : departments.length === 0 ? (
        q ? (
          <EmptyPanel
            icon={<IconSearchOff size={28} stroke={1.6} />}
            title={t('departments.no_results_title')}
            description={t('departments.no_results_description')}
          />
        ) : (
          <EmptyPanel
            icon={<IconSitemap size={28} stroke={1.6} />}
            title={t('pages.departments.empty_title')}
            description={t('pages.departments.empty_description')}
          />
        )
      ) : (
        <Stack gap="md">
          {mobile ? (
            <Stack gap="sm" data-testid="departments-cards">
              {departments.map((department) => (
                <Card key={department._id} withBorder radius="lg" padding="md" data-testid="department-row">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Stack gap={6} style={{ minWidth: 0 }}>
                      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {department.displayName}
                      </Text>
                      <Group gap={6}>{statusBadge(department)}</Group>
                    </Stack>
                    <DepartmentActions department={department} onAction={onAction} />
                  </Group>
                </Card>
              ))}
            </Stack>
          ) : (
            <Table verticalSpacing="sm" highlightOnHover data-testid="departments-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('departments.fields.name')}</Table.Th>
                  <Table.Th>{t('users.fields.status')}</Table.Th>
                  <Table.Th w={56}>
                    <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {departments.map((department) => (
                  <Table.Tr key={department._id} data-testid="department-row">
                    <Table.Td>
                      <Text fw={500} size="sm">
                        {department.displayName}
                      </Text>
                    </Table.Td>
                    <Table.Td>{statusBadge(department)}</Table.Td>
                    <Table.Td>
                      <DepartmentActions department={department} onAction={onAction} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('common.showing', { shown: departments.length, total })}
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

      <DepartmentDialog
        opened={dialog !== null}
        department={dialog?.department ?? null}
        domain={targetDomain}
        onClose={() => setDialog(null)}
        onSaved={(saved, created) => {
          setDialog(null);
          void popup.show({
            status: 'success',
            title: t(created ? 'departments.created' : 'departments.saved', { name: saved.displayName }),
          });
        }}
      />
      <ConfirmDialog
        opened={confirm !== null}
        title={confirm ? t(`departments.confirm.${confirm.kind}.title`) : ''}
        message={
          confirm
            ? t(`departments.confirm.${confirm.kind}.message`, { name: confirm.department.displayName })
            : ''
        }
        confirmLabel={confirm ? t(`departments.confirm.${confirm.kind}.confirm`) : ''}
        cancelLabel={t('common.cancel')}
        loading={update.isPending || remove.isPending}
        error={confirmError}
        onConfirm={() => void runConfirm()}
        onClose={() => setConfirm(null)}
      />
    </>
  );
}
