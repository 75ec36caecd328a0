import { type Department, spansDomains, type User } from '@assistente/contracts';
import { Badge, Button, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconDatabaseExport,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconSitemap,
  IconTrash,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { apiErrorCode, apiErrorCount, apiErrorText } from '../../ui/apiError.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataList, ListSearch, RowActions } from '../../ui/DataList.tsx';
import { useConfirm } from '../../ui/hooks/useConfirm.ts';
import { useIsMobile } from '../../ui/hooks/useIsMobile.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { usePopup } from '../../ui/popup/usePopup.ts';
import { useAccountSession } from '../auth/index.ts';
import { ExportDataDialog, type ExportSubject } from '../data-export/index.ts';
import { DomainSelect } from '../domains/index.ts';
import { DepartmentDialog } from './components/DepartmentDialog.tsx';
import { useDeleteDepartment, useDepartmentList, useUpdateDepartment } from './hooks/useDepartments.ts';

type Confirm = { kind: 'deactivate' | 'remove'; department: Department };

/** `/departments` (Admin+): the domain's departments; a SuperAdmin picks the domain. */
export default function DepartmentsPage() {
  const { apiUser } = useAccountSession();
  return apiUser ? <Departments caller={apiUser} /> : null;
}

function Departments({ caller }: { caller: User }) {
  const { t } = useTranslation();
  const popup = usePopup();
  const mobile = useIsMobile();
  const superAdmin = spansDomains(caller);
  const [domain, setDomain] = useState(caller.domain);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const list = useDepartmentList({ domain: superAdmin ? domain : caller.domain, q });
  const departments = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;

  const [dialog, setDialog] = useState<{ department: Department | null } | null>(null);
  const confirm = useConfirm<Confirm>();
  const [exporting, setExporting] = useState<ExportSubject | null>(null);
  const update = useUpdateDepartment();
  const remove = useDeleteDepartment();
  const targetDomain = superAdmin ? domain : caller.domain;

  const reactivate = (department: Department) =>
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

  const runConfirm = () =>
    confirm.run(
      async ({ kind, department }) => {
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
      },
      (error, { kind, department }) =>
        kind === 'remove' && apiErrorCode(error) === 'CONFLICT'
          ? t('departments.errors.has_users', {
              name: department.displayName,
              count: apiErrorCount(error, 'users') ?? '?',
            })
          : apiErrorText(t, error),
    );

  const statusBadge = (department: Department) => (
    <Badge variant="light" color={department.active ? 'green' : 'neutral'} radius="sm">
      {t(department.active ? 'common.active' : 'common.inactive')}
    </Badge>
  );

  const actions = (department: Department) => (
    <RowActions
      label={t('departments.actions.label', { name: department.displayName })}
      actions={[
        {
          key: 'rename',
          label: t('departments.actions.rename'),
          icon: <IconPencil size={16} />,
          onClick: () => setDialog({ department }),
        },
        department.active
          ? {
              key: 'deactivate',
              label: t('departments.actions.deactivate'),
              icon: <IconPlayerPause size={16} />,
              onClick: () => confirm.ask({ kind: 'deactivate', department }),
            }
          : {
              key: 'reactivate',
              label: t('departments.actions.reactivate'),
              icon: <IconPlayerPlay size={16} />,
              onClick: () => reactivate(department),
            },
        {
          key: 'exportData',
          label: t('dataExport.admin.menu_department'),
          icon: <IconDatabaseExport size={16} />,
          onClick: () =>
            setExporting({ kind: 'department', id: department._id, name: department.displayName }),
        },
        {
          key: 'remove',
          label: t('common.delete'),
          icon: <IconTrash size={16} />,
          danger: true,
          onClick: () => confirm.ask({ kind: 'remove', department }),
        },
      ]}
    />
  );

  const pending = confirm.target;
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
        <ListSearch
          value={search}
          onChange={setSearch}
          placeholder={t('departments.search_placeholder')}
          mobile={mobile}
        />
        {superAdmin ? (
          <DomainSelect
            value={domain}
            onChange={(next) => next && setDomain(next)}
            w={mobile ? '100%' : 240}
          />
        ) : null}
      </Group>

      <DataList
        query={list}
        rows={departments}
        total={total}
        rowKey={(department) => department._id}
        columns={[
          {
            key: 'name',
            title: t('departments.fields.name'),
            cell: (department) => (
              <Text fw={500} size="sm">
                {department.displayName}
              </Text>
            ),
          },
          { key: 'status', title: t('users.fields.status'), cell: statusBadge },
        ]}
        card={(department) => ({
          title: department.displayName,
          details: (
            <Group gap={6} mt={4}>
              {statusBadge(department)}
            </Group>
          ),
        })}
        actions={actions}
        mobile={mobile}
        testIds={{ table: 'departments-table', cards: 'departments-cards', row: 'department-row' }}
        loadFailedTitle={t('departments.errors.load_failed')}
        filtered={q !== ''}
        noResults={{
          title: t('departments.no_results_title'),
          description: t('departments.no_results_description'),
        }}
        empty={{
          icon: <IconSitemap size={28} stroke={1.6} />,
          title: t('pages.departments.empty_title'),
          description: t('pages.departments.empty_description'),
        }}
      />

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
      <ExportDataDialog subject={exporting} onClose={() => setExporting(null)} />
      <ConfirmDialog
        opened={pending !== null}
        title={pending ? t(`departments.confirm.${pending.kind}.title`) : ''}
        message={
          pending
            ? t(`departments.confirm.${pending.kind}.message`, { name: pending.department.displayName })
            : ''
        }
        confirmLabel={pending ? t(`departments.confirm.${pending.kind}.confirm`) : ''}
        cancelLabel={t('common.cancel')}
        loading={update.isPending || remove.isPending}
        error={confirm.error}
        onConfirm={() => void runConfirm()}
        onClose={confirm.close}
      />
    </>
  );
}
