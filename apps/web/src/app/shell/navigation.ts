import { hasRole, type Role } from '@assistente/contracts';
import type { WebRoutePath } from '../router/routeMeta.ts';
import { routeMeta } from '../router/routeMeta.ts';

export type NavKey =
  | 'home'
  | 'chats'
  | 'santitos'
  | 'settings'
  | 'users'
  | 'departments'
  | 'integration'
  | 'usage'
  | 'domains';

export interface NavItem {
  key: NavKey;
  path: WebRoutePath;
}

/** Main navigation in display order. */
const NAV_ITEMS: readonly NavItem[] = [
  { key: 'home', path: '/' },
  { key: 'chats', path: '/chats' },
  { key: 'santitos', path: '/santitos' },
  { key: 'users', path: '/users' },
  { key: 'departments', path: '/departments' },
  { key: 'integration', path: '/integration' },
  { key: 'usage', path: '/usage' },
  { key: 'domains', path: '/domains' },
  { key: 'settings', path: '/settings' },
];

/** The links a user may follow: by role (route minRole) and premium (premium routes). */
export function visibleNavItems(user: { role: Role | null; premium: boolean }): NavItem[] {
  return NAV_ITEMS.filter((item) => {
    const meta = routeMeta(item.path);
    if (meta.premium && !user.premium) return false;
    if (meta.minRole && (!user.role || !hasRole(user.role, meta.minRole))) return false;
    return true;
  });
}
