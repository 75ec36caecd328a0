import { QueryClientProvider } from '@tanstack/react-query';
import { Link, Outlet } from 'react-router';
import { useTranslation } from '../../lib/i18n/index.ts';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';
import { Logo } from '../../ui/Logo.tsx';
import { queryClient } from '../queryClient.ts';
import { LanguageSelect } from '../shell/LanguageSelect.tsx';
import classes from './ShareLayout.module.css';

/**
 * The layout of a shared chat's page (docs/ARCHITECTURE.md#share-links): light, like the embedded
 * page — the brand and the language, no sidebar, no sign-in asked for.
 */
export default function ShareLayout() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <QueryClientProvider client={queryClient}>
      <div className={classes.root}>
        <header className={classes.top}>
          <Link to={lp('/')} className={classes.brand} aria-label={t('app.name')}>
            <Logo name={t('app.name')} size={28} />
          </Link>
          <LanguageSelect />
        </header>
        <main className={classes.main}>
          <Outlet />
        </main>
      </div>
    </QueryClientProvider>
  );
}
