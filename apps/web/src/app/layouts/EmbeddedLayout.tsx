import { Group } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { useTranslation } from '../../lib/i18n/index.ts';
import { Logo } from '../../ui/Logo.tsx';
import { queryClient } from '../queryClient.ts';
import classes from './EmbeddedLayout.module.css';

/** The embedded layout: a compact frame for the chat inside another site's iframe. */
export default function EmbeddedLayout() {
  const { t } = useTranslation();
  return (
    <QueryClientProvider client={queryClient}>
      <div className={classes.frame}>
        <header className={classes.header}>
          <Group gap="xs" wrap="nowrap">
            <Logo name={t('app.name')} size={24} />
          </Group>
        </header>
        <main className={classes.main}>
          <Outlet />
        </main>
      </div>
    </QueryClientProvider>
  );
}
