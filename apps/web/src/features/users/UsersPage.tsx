import type { User, UserSortField } from '@assistente/contracts';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearchOff, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { usePopup } from '../../app/popup/usePopup.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { apiErrorText } from '../../ui/apiError.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { EmptyPanel } from '../../ui/EmptyPanel.tsx';
import { useIsMobile } from '../../ui/hooks/useIsMobile.ts';
import { ListSkeleton, LoadError } from '../../ui/LoadState.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { useAccountSession } from '../auth/hooks/useAccountSession.ts';
import { useDepartmentNames } from '../departments/hooks/useDepartments.ts';
import { EditUserDialog } from './components/EditUserDialog.tsx';
import { InviteUserDialog } from './components/InviteUserDialog.tsx';
import type { UserAction } from './components/UserActionsMenu.tsx';
import { UserFilters, type UserFilterValues } from './components/UserFilters.tsx';
import { UsersGrid } from './components/UsersGrid.tsx';
import {
  useDeleteUser,
  useResendInvitation,
  useRevokeUserSessions,
  useUpdateUser,
  useUserList,
} from './hooks/useUsers.ts';
import { assignableRoles, editableRoles, userActions } from './permissions.ts';

type Confirm = { kind: 'deactivate' | 'remove' | 'revokeSessions'; user: User } | null;

const SEARCH_DEBOUNCE_MS = 300;

/** `/users` (Admin+): the domain's users; a SuperAdmin sees every domain, with a domain filter. */
export default function UsersPage() {
  const { apiUser } = useAccountSession();
  return apiUser ? <Users caller={apiUser} /> : null;
}

function Users({ caller }: { caller: User }) {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const mobile = useIsMobile();
  const superAdmin = caller.role === 'SuperAdmin';

  const [filters, setFilters] = useState<UserFilterValues>({
    search: '',
    domain: '',
    role: '',
    status: 'all',
    sort: 'displayName',
    order: 'asc',
  });
  const [q] = useDebouncedValue(filters.search.trim(), SEARCH_DEBOUNCE_MS);
  const params = {
    q,
    sort: filters.sort,
    order: filters.order,
    ...(filters.role ? { role: filters.role } : {}),
    ...(filters.status === 'all' ? {} : { active: filters.status === 'active' }),
    domain: superAdmin ? filters.domain || null : caller.domain,
  };
  const list = useUserList(params);
  const users = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const domains = useMemo(
    () => [...new Set([caller.domain, ...users.map((u) => u.domain)])].sort(),
    [caller.domain, users],
  );
  const departmentNames = useDepartmentNames(domains);

  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const resend = useResendInvitation();
  const revoke = useRevokeUserSessions();

  const fail = (title: string, error: unknown) =>
    void popup.show({ status: 'error', title, description: apiErrorText(t, error) });
  const succeed = (title: string, description?: string) =>
    void popup.show({ status: 'success', title, ...(description ? { description } : {}) });

  const onSort = (field: UserSortField) =>
    setFilters((f) => ({
      ...f,
      sort: field,
      order: f.sort === field ? (f.order === 'asc' ? 'desc' : 'asc') : field === 'createdAt' ? 'desc' : 'asc',
    }));

  const onAction = (action: UserAction, user: User) => {
    setConfirmError(null);
    switch (action) {
      case 'edit':
        setEditing(user);
        return;
      case 'deactivate':
      case 'remove':
      case 'revokeSessions':
        setConfirm({ kind: action, user });
        return;
      case 'reactivate':
        update.mutate(
          { ...user, active: true },
          {
            onSuccess: () => succeed(t('users.reactivated', { name: user.displayName })),
            onError: (error) => fail(t('users.errors.update_failed'), error),
          },
        );
        return;
      case 'invite':
        resend.mutate(
          { user, locale: i18n.language },
          {
            onSuccess: () => succeed(t('users.invitation_sent'), user.email),
            onError: (error) => fail(t('users.errors.invite_failed'), error),
          },
        );
        return;
    }
  };

  const runConfirm = async () => {
    if (!confirm) return;
    const { kind, user } = confirm;
    setConfirmError(null);
    try {
      if (kind === 'deactivate') {
        await update.mutateAsync({ ...user, active: false });
        succeed(t('users.deactivated', { name: user.displayName }));
      } else if (kind === 'remove') {
        await remove.mutateAsync(user);
        succeed(t('users.deleted', { name: user.displayName }));
      } else {
        const result = await revoke.mutateAsync(user);
        succeed(t('users.sessions_revoked', { count: result.revoked }));
      }
      setConfirm(null);
    } catch (error) {
      setConfirmError(apiErrorText(t, error));
    }
  };

  const filtered = q !== '' || filters.role !== '' || filters.status !== 'all' || filters.domain !== '';
  const editingAllow = editing ? userActions(caller, editing) : null;

  return (
    <>
      <PageHeader
        title={t('nav.users')}
        description={t(superAdmin ? 'users.description_all' : 'pages.users.description')}
        actions={
          <Button leftSection={<IconUserPlus size={18} />} onClick={() => setInviting(true)}>
            {t('users.invite.open')}
          </Button>
        }
      />
      <UserFilters
        values={filters}
        onChange={(patch) => setFilters((f) => ({ ...f, ...patch }))}
        chooseDomain={superAdmin}
        mobile={mobile}
      />

      {list.isPending ? (
        <ListSkeleton label={t('app.loading')} />
      ) : list.isError ? (
        <LoadError
          title={t('users.errors.load_failed')}
          message={apiErrorText(t, list.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void list.refetch()}
        />
      ) : users.length === 0 ? (
        filtered ? (
          <EmptyPanel
            icon={<IconSearchOff size={28} stroke={1.6} />}
            title={t('users.no_results_title')}
            description={t('users.no_results_description')}
          />
        ) : (
          <EmptyPanel
            icon={<IconUsers size={28} stroke={1.6} />}
            title={t('pages.users.empty_title')}
            description={t('pages.users.empty_description')}
          >
            <Button leftSection={<IconUserPlus size={18} />} onClick={() => setInviting(true)}>
              {t('users.invite.open')}
            </Button>
          </EmptyPanel>
        )
      ) : (
        <Stack gap="md">
          <UsersGrid
            users={users}
            caller={caller}
            departmentNames={departmentNames}
            showDomain={superAdmin && filters.domain === ''}
            sort={filters.sort}
            order={filters.order}
            onSort={onSort}
            onAction={onAction}
            mobile={mobile}
          />
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" data-testid="users-count" aria-live="polite">
              {t('common.showing', { shown: users.length, total })}
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

      <InviteUserDialog
        opened={inviting}
        onClose={() => setInviting(false)}
        onCreated={(created) => {
          setInviting(false);
          if (created.invitationSent)
            succeed(t('users.invite.sent_title'), t('users.invite.sent', { email: created.email }));
          else
            void popup.show({
              status: 'warning',
              title: t('users.invite.created_title'),
              description: t('users.invite.not_sent'),
            });
        }}
        callerDomain={caller.domain}
        callerDepartment={caller.department}
        chooseDomain={superAdmin}
        roles={assignableRoles(caller.role)}
      />
      <EditUserDialog
        user={editing}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          succeed(t('users.saved', { name: saved.displayName }));
        }}
        roles={editing ? editableRoles(caller, editing) : []}
        allow={{
          changeRole: editingAllow?.changeRole ?? false,
          changeDepartment: editingAllow?.changeDepartment ?? false,
          changeActive: editingAllow?.changeActive ?? false,
        }}
      />
      <ConfirmDialog
        opened={confirm !== null}
        title={confirm ? t(`users.confirm.${confirm.kind}.title`) : ''}
        message={
          confirm
            ? t(`users.confirm.${confirm.kind}.message`, {
                name: confirm.user.displayName,
                email: confirm.user.email,
              })
            : ''
        }
        confirmLabel={confirm ? t(`users.confirm.${confirm.kind}.confirm`) : ''}
        cancelLabel={t('common.cancel')}
        loading={update.isPending || remove.isPending || revoke.isPending}
        error={confirmError}
        onConfirm={() => void runConfirm()}
        onClose={() => setConfirm(null)}
      />
    </>
  );
}
