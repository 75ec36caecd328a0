import { splitLocale } from '@assistente/contracts';
import { NavLink, Stack } from '@mantine/core';
import {
  IconBuildingCommunity,
  IconChartBar,
  IconHome2,
  IconMessages,
  IconPlugConnected,
  IconSettings,
  IconSitemap,
  IconSparkles,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import { isPremium, useAccountSession } from '../../features/auth/index.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';
import classes from './MainNav.module.css';
import { type NavKey, visibleNavItems } from './navigation.ts';

const ICONS: Record<NavKey, ComponentType<{ size?: number; stroke?: number }>> = {
  home: IconHome2,
  chats: IconMessages,
  santitos: IconSparkles,
  settings: IconSettings,
  users: IconUsers,
  departments: IconSitemap,
  integration: IconPlugConnected,
  usage: IconChartBar,
  domains: IconBuildingCommunity,
};

/** The main navigation (mainSidebarModel): links by role and premium; `onNavigate` runs on any link's click. */
export function MainNav({ onNavigate }: { onNavigate?: () => void } = {}) {
  const { t } = useTranslation();
  const { apiUser, domain } = useAccountSession();
  const { pathname } = useLocation();
  const lp = useLocalePath();
  const current = splitLocale(pathname).path;
  const items = visibleNavItems({ role: apiUser?.role ?? null, premium: isPremium(domain) });

  return (
    // A plain scrolling box: Mantine's ScrollArea would bring the floating-ui engine into every page.
    <div className={classes.scroll}>
      <Stack component="nav" gap={2} p="sm" aria-label={t('nav.main')}>
        {items.map((item) => {
          const Icon = ICONS[item.key];
          const active =
            item.path === '/'
              ? current === '/'
              : current === item.path || current.startsWith(`${item.path}/`);
          return (
            <NavLink
              key={item.key}
              component={Link}
              to={lp(item.path)}
              label={t(`nav.${item.key}`)}
              leftSection={<Icon size={20} stroke={1.7} />}
              active={active}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
              variant="light"
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
              fw={500}
            />
          );
        })}
      </Stack>
    </div>
  );
}
