import type { User } from '@assistente/contracts';
import { ActionIcon, Menu } from '@mantine/core';
import {
  IconDots,
  IconLogout,
  IconMailForward,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import type { userActions } from '../permissions.ts';

export type UserAction = 'edit' | 'invite' | 'revokeSessions' | 'deactivate' | 'reactivate' | 'remove';

/** The actions of one user row, as far as the caller may take them. */
export function UserActionsMenu({
  user,
  allowed,
  onAction,
}: {
  user: User;
  allowed: ReturnType<typeof userActions>;
  onAction: (action: UserAction, user: User) => void;
}) {
  const { t } = useTranslation();
  const any = allowed.edit || allowed.invite || allowed.changeActive || allowed.remove;
  if (!any) return null;
  return (
    <Menu position="bottom-end" shadow="md" width={230} withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="neutral.7"
          size="lg"
          aria-label={t('users.actions.label', { name: user.displayName || user.email })}
        >
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {allowed.edit ? (
          <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onAction('edit', user)}>
            {t('common.edit')}
          </Menu.Item>
        ) : null}
        {allowed.invite ? (
          <Menu.Item leftSection={<IconMailForward size={16} />} onClick={() => onAction('invite', user)}>
            {t('users.actions.resend_invitation')}
          </Menu.Item>
        ) : null}
        {allowed.revokeSessions ? (
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => onAction('revokeSessions', user)}>
            {t('users.actions.revoke_sessions')}
          </Menu.Item>
        ) : null}
        {allowed.changeActive ? (
          user.active ? (
            <Menu.Item
              leftSection={<IconPlayerPause size={16} />}
              onClick={() => onAction('deactivate', user)}
            >
              {t('users.actions.deactivate')}
            </Menu.Item>
          ) : (
            <Menu.Item
              leftSection={<IconPlayerPlay size={16} />}
              onClick={() => onAction('reactivate', user)}
            >
              {t('users.actions.reactivate')}
            </Menu.Item>
          )
        ) : null}
        {allowed.remove ? (
          <>
            <Menu.Divider />
            <Menu.Item
              color="error"
              leftSection={<IconTrash size={16} />}
              onClick={() => onAction('remove', user)}
            >
              {t('common.delete')}
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
