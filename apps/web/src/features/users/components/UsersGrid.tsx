import type { SortOrder, User, UserSortField } from '@assistente/contracts';
import { Badge, Group, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { DataList, type DataListColumn, type DataListProps } from '../../../ui/DataList.tsx';
import { userActions } from '../permissions.ts';
import { type UserAction, UserActionsMenu } from './UserActionsMenu.tsx';

export interface UsersGridProps {
  /** The list query, its total, whether filters are on, and the layout. */
  list: Pick<DataListProps<User>, 'query' | 'total' | 'filtered' | 'mobile'>;
  /** What the empty state offers (invite the first user). */
  emptyAction: ReactNode;
  users: readonly User[];
  caller: User;
  departmentNames: ReadonlyMap<string, string>;
  showDomain: boolean;
  sort: UserSortField;
  order: SortOrder;
  onSort: (field: UserSortField) => void;
  onAction: (action: UserAction, user: User) => void;
}

/** Active, inactive, or invited and not signed up yet (active, but unable to sign in until then). */
function StatusBadge({ user }: { user: User }) {
  const { t } = useTranslation();
  if (user.active && user.invitePending) {
    return (
      <Badge variant="light" color="orange" radius="sm" data-testid="invite-pending">
        {t('users.invite_pending')}
      </Badge>
    );
  }
  return (
    <Badge variant="light" color={user.active ? 'green' : 'neutral'} radius="sm">
      {t(user.active ? 'common.active' : 'common.inactive')}
    </Badge>
  );
}

/** Shown while the person is under legal hold: nothing of theirs is deleted. */
function LegalHoldBadge({ user }: { user: User }) {
  const { t } = useTranslation();
  if (!user.legalHold) return null;
  return (
    <Badge variant="light" color="grape" radius="sm" data-testid="legal-hold-badge">
      {t('retention.legal_hold.badge')}
    </Badge>
  );
}

function RoleBadge({ user }: { user: User }) {
  const { t } = useTranslation();
  const strong = user.role === 'Admin' || user.role === 'SuperAdmin';
  return (
    <Badge variant={strong ? 'filled' : 'light'} color="primary" radius="sm">
      {t(`roles.${user.role}`)}
    </Badge>
  );
}

/** The users grid: a sortable table from 960 px up, a card list below, with the list's states. */
export function UsersGrid(props: UsersGridProps) {
  const { users, caller, departmentNames, showDomain, sort, order, onSort, onAction } = props;
  const { t } = useTranslation();
  const department = (user: User) => departmentNames.get(user.department) ?? '—';
  const sortBy = (field: UserSortField) => ({ active: sort === field, order, onSort: () => onSort(field) });
  const columns: DataListColumn<User>[] = [
    {
      key: 'name',
      title: t('users.fields.name'),
      sort: sortBy('displayName'),
      cell: (user) => (
        <Text fw={500} size="sm">
          {user.displayName}
        </Text>
      ),
    },
    {
      key: 'email',
      title: t('users.fields.email'),
      sort: sortBy('email'),
      cell: (user) => (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {user.email}
        </Text>
      ),
    },
    {
      key: 'role',
      title: t('users.fields.role'),
      sort: sortBy('role'),
      cell: (user) => <RoleBadge user={user} />,
    },
    {
      key: 'department',
      title: t('users.fields.department'),
      cell: (user) => <Text size="sm">{department(user)}</Text>,
    },
    ...(showDomain
      ? [
          {
            key: 'domain',
            title: t('users.fields.domain'),
            cell: (user: User) => <Text size="sm">{user.domain}</Text>,
          },
        ]
      : []),
    {
      key: 'status',
      title: t('users.fields.status'),
      cell: (user) => (
        <Group gap={4} wrap="wrap">
          <StatusBadge user={user} />
          <LegalHoldBadge user={user} />
        </Group>
      ),
    },
  ];

  return (
    <DataList
      {...props.list}
      rows={users}
      rowKey={(user) => user._id}
      columns={columns}
      card={(user) => ({
        title: user.displayName,
        details: (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
        ),
        footer: (
          <>
            <RoleBadge user={user} />
            <StatusBadge user={user} />
            <LegalHoldBadge user={user} />
            <Badge variant="outline" color="neutral.6" radius="sm" tt="none">
              {department(user)}
            </Badge>
            {showDomain ? (
              <Badge variant="outline" color="neutral.6" radius="sm" tt="none">
                {user.domain}
              </Badge>
            ) : null}
          </>
        ),
      })}
      actions={(user) => (
        <UserActionsMenu user={user} allowed={userActions(caller, user)} onAction={onAction} />
      )}
      testIds={{ table: 'users-table', cards: 'users-cards', row: 'user-row', count: 'users-count' }}
      minWidth={720}
      loadFailedTitle={t('users.errors.load_failed')}
      noResults={{ title: t('users.no_results_title'), description: t('users.no_results_description') }}
      empty={{
        icon: <IconUsers size={28} stroke={1.6} />,
        title: t('pages.users.empty_title'),
        description: t('pages.users.empty_description'),
        action: props.emptyAction,
      }}
    />
  );
}
