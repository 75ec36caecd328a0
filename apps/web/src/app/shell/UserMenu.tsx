import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { signOut, useAccountSession } from '../../features/auth/index.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { Menu } from '../../ui/DeferredFloating.tsx';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase() || '?';
}

/** Avatar menu: who is signed in, settings, sign out. */
export function UserMenu() {
  const { t } = useTranslation();
  const { apiUser, identityUser } = useAccountSession();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const [leaving, setLeaving] = useState(false);
  const name = apiUser?.displayName || identityUser?.displayName || apiUser?.email || '';
  const email = apiUser?.email ?? identityUser?.email ?? '';

  const onSignOut = async () => {
    setLeaving(true);
    try {
      await signOut();
    } finally {
      setLeaving(false);
      navigate(lp('/auth/login'), { replace: true });
    }
  };

  return (
    <Menu position="bottom-end" shadow="md" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('user_menu.label')} px={6} py={4} style={{ borderRadius: 999 }}>
          <Group gap={8} wrap="nowrap">
            <Avatar color="primary" radius="xl" size={34}>
              {initials(name)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
              {name}
            </Text>
            <IconChevronDown size={14} stroke={1.8} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to={lp('/settings')} leftSection={<IconSettings size={16} />}>
          {t('user_menu.settings')}
        </Menu.Item>
        <Menu.Item
          color="error"
          leftSection={<IconLogout size={16} />}
          onClick={() => void onSignOut()}
          disabled={leaving}
        >
          {t('user_menu.sign_out')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
