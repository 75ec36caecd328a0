import type { SortOrder, User, UserSortField } from '@assistente/contracts';
import { Badge, Card, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { SortHeader } from '../../../ui/SortHeader.tsx';
import { userActions } from '../permissions.ts';
import { type UserAction, UserActionsMenu } from './UserActionsMenu.tsx';

export interface UsersGridProps {
  users: readonly User[];
  caller: User;
  departmentNames: ReadonlyMap<string, string>;
  showDomain: boolean;
  sort: UserSortField;
  order: SortOrder;
  onSort: (field: UserSortField) => void;
  onAction: (action: UserAction, user: User) => void;
  mobile: boolean;
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

function RoleBadge({ user }: { user: User }) {
  const { t } = useTranslation();
  const strong = user.role === 'Admin' || user.role === 'SuperAdmin';
  return (
    <Badge variant={strong ? 'filled' : 'light'} color="primary" radius="sm">
      {t(`roles.${user.role}`)}
    </Badge>
  );
}

/** The users grid: a sortable table from 960 px up, a card list below. */
export function UsersGrid(props: UsersGridProps) {
  const { users, caller, departmentNames, showDomain, sort, order, onSort, onAction, mobile } = props;
  const { t } = useTranslation();
  const department = (user: User) => departmentNames.get(user.department) ?? '—';

  if (mobile) {
    return (
      <Stack gap="sm" data-testid="users-cards">
        {users.map((user) => (
          <Card key={user._id} withBorder radius="lg" padding="md" data-testid="user-row">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {user.displayName}
                </Text>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {user.email}
                </Text>
              </Stack>
              <UserActionsMenu user={user} allowed={userActions(caller, user)} onAction={onAction} />
            </Group>
            <Group gap={6} mt="sm">
              <RoleBadge user={user} />
              <StatusBadge user={user} />
              <Badge variant="outline" color="neutral.6" radius="sm" tt="none">
                {department(user)}
              </Badge>
              {showDomain ? (
                <Badge variant="outline" color="neutral.6" radius="sm" tt="none">
                  {user.domain}
                </Badge>
              ) : null}
            </Group>
          </Card>
        ))}
      </Stack>
    );
  }

  return (
    <Table.ScrollContainer type="native" minWidth={720}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="users-table">
        <Table.Thead>
          <Table.Tr>
            <SortHeader active={sort === 'displayName'} order={order} onSort={() => onSort('displayName')}>
              {t('users.fields.name')}
            </SortHeader>
            <SortHeader active={sort === 'email'} order={order} onSort={() => onSort('email')}>
              {t('users.fields.email')}
            </SortHeader>
            <SortHeader active={sort === 'role'} order={order} onSort={() => onSort('role')}>
              {t('users.fields.role')}
            </SortHeader>
            <Table.Th>{t('users.fields.department')}</Table.Th>
            {showDomain ? <Table.Th>{t('users.fields.domain')}</Table.Th> : null}
            <Table.Th>{t('users.fields.status')}</Table.Th>
            <Table.Th w={56}>
              <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => (
            <Table.Tr key={user._id} data-testid="user-row">
              <Table.Td>
                <Text fw={500} size="sm">
                  {user.displayName}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {user.email}
                </Text>
              </Table.Td>
              <Table.Td>
                <RoleBadge user={user} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{department(user)}</Text>
              </Table.Td>
              {showDomain ? (
                <Table.Td>
                  <Text size="sm">{user.domain}</Text>
                </Table.Td>
              ) : null}
              <Table.Td>
                <StatusBadge user={user} />
              </Table.Td>
              <Table.Td>
                <UserActionsMenu user={user} allowed={userActions(caller, user)} onAction={onAction} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
