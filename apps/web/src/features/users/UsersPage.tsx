import { spansDomains, type User, type UserSortField } from '@assistente/contracts';
import { Button } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../lib/i18n/index.ts';
import { apiErrorText } from '../../ui/apiError.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useConfirm } from '../../ui/hooks/useConfirm.ts';
import { useIsMobile } from '../../ui/hooks/useIsMobile.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { usePopup } from '../../ui/popup/usePopup.ts';
import { useAccountSession } from '../auth/index.ts';
import { ExportDataDialog, type ExportSubject } from '../data-export/index.ts';
import { useDepartmentNames } from '../departments/index.ts';
import { EditUserDialog } from './components/EditUserDialog.tsx';
import { InviteUserDialog } from './components/InviteUserDialog.tsx';
import type { UserAction } from './components/UserActionsMenu.tsx';
import { UserFilters, type UserFilterValues } from './components/UserFilters.tsx';
import { UsersGrid } from './components/UsersGrid.tsx';
import {
  useDeleteUser,
  useResendInvitation,
  useRevokeUserSessions,
  useSetLegalHold,
  useUpdateUser,
  useUserList,
} from './hooks/useUsers.ts';
import { assignableRoles, editableRoles, userActions } from './permissions.ts';

type Confirm = { kind: 'deactivate' | 'remove' | 'revokeSessions' | 'holdOn' | 'holdOff'; user: User };

/** Where a confirmation's texts are: legal hold's with retention's, the others with the users'. */
const confirmKeys = (kind: Confirm['kind']) =>
  kind === 'holdOn' || kind === 'holdOff'
    ? `retention.legal_hold.${kind === 'holdOn' ? 'on' : 'off'}`
    : `users.confirm.${kind}`;

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
  const superAdmin = spansDomains(caller);

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
  const [exporting, setExporting] = useState<ExportSubject | null>(null);
  const confirm = useConfirm<Confirm>();
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const resend = useResendInvitation();
  const revoke = useRevokeUserSessions();
  const hold = useSetLegalHold();

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
    switch (action) {
      case 'edit':
        setEditing(user);
        return;
      case 'exportData':
        setExporting({ kind: 'user', id: user._id, name: user.displayName || user.email, email: user.email });
        return;
      case 'deactivate':
      case 'remove':
      case 'revokeSessions':
      case 'holdOn':
      case 'holdOff':
        confirm.ask({ kind: action, user });
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

  const runConfirm = () =>
    confirm.run(
      async ({ kind, user }) => {
        if (kind === 'deactivate') {
          await update.mutateAsync({ ...user, active: false });
          succeed(t('users.deactivated', { name: user.displayName }));
        } else if (kind === 'remove') {
          await remove.mutateAsync(user);
          succeed(t('users.deleted', { name: user.displayName }));
        } else if (kind === 'holdOn' || kind === 'holdOff') {
          await hold.mutateAsync({ user, hold: kind === 'holdOn' });
          succeed(
            t(`retention.legal_hold.${kind === 'holdOn' ? 'on' : 'off'}.done`, { name: user.displayName }),
          );
        } else {
          const result = await revoke.mutateAsync(user);
          succeed(t('users.sessions_revoked', { count: result.revoked }));
        }
      },
      (error) => apiErrorText(t, error),
    );

  const filtered = q !== '' || filters.role !== '' || filters.status !== 'all' || filters.domain !== '';
  const editingAllow = editing ? userActions(caller, editing) : null;
  const pending = confirm.target;

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

      <UsersGrid
        list={{ query: list, total, filtered, mobile }}
        emptyAction={
          <Button leftSection={<IconUserPlus size={18} />} onClick={() => setInviting(true)}>
            {t('users.invite.open')}
          </Button>
        }
        users={users}
        caller={caller}
        departmentNames={departmentNames}
        showDomain={superAdmin && filters.domain === ''}
        sort={filters.sort}
        order={filters.order}
        onSort={onSort}
        onAction={onAction}
      />

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
      <ExportDataDialog subject={exporting} onClose={() => setExporting(null)} />
      <ConfirmDialog
        opened={pending !== null}
        title={pending ? t(`${confirmKeys(pending.kind)}.title`) : ''}
        message={
          pending
            ? t(`${confirmKeys(pending.kind)}.message`, {
                name: pending.user.displayName,
                email: pending.user.email,
              })
            : ''
        }
        confirmLabel={pending ? t(`${confirmKeys(pending.kind)}.confirm`) : ''}
        cancelLabel={t('common.cancel')}
        danger={pending?.kind !== 'holdOn'}
        loading={update.isPending || remove.isPending || revoke.isPending || hold.isPending}
        error={confirm.error}
        onConfirm={() => void runConfirm()}
        onClose={confirm.close}
      />
    </>
  );
}
