import type { User } from '@assistente/contracts';
import {
  IconDatabaseExport,
  IconGavel,
  IconLogout,
  IconMailForward,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconTrash,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { RowActions } from '../../../ui/DataList.tsx';
import type { userActions } from '../permissions.ts';

export type UserAction =
  | 'edit'
  | 'invite'
  | 'revokeSessions'
  | 'deactivate'
  | 'reactivate'
  | 'holdOn'
  | 'holdOff'
  | 'exportData'
  | 'remove';

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
  const action = (key: UserAction, label: string, icon: ReactNode, danger = false) => ({
    key,
    label,
    icon,
    danger,
    onClick: () => onAction(key, user),
  });
  return (
    <RowActions
      label={t('users.actions.label', { name: user.displayName || user.email })}
      width={230}
      actions={[
        allowed.edit && action('edit', t('common.edit'), <IconPencil size={16} />),
        allowed.invite &&
          action('invite', t('users.actions.resend_invitation'), <IconMailForward size={16} />),
        allowed.revokeSessions &&
          action('revokeSessions', t('users.actions.revoke_sessions'), <IconLogout size={16} />),
        allowed.changeActive &&
          (user.active
            ? action('deactivate', t('users.actions.deactivate'), <IconPlayerPause size={16} />)
            : action('reactivate', t('users.actions.reactivate'), <IconPlayerPlay size={16} />)),
        allowed.legalHold &&
          (user.legalHold
            ? action('holdOff', t('retention.legal_hold.menu_off'), <IconGavel size={16} />)
            : action('holdOn', t('retention.legal_hold.menu_on'), <IconGavel size={16} />)),
        allowed.exportData &&
          action('exportData', t('dataExport.admin.menu_user'), <IconDatabaseExport size={16} />),
        allowed.remove && action('remove', t('common.delete'), <IconTrash size={16} />, true),
      ]}
    />
  );
}
