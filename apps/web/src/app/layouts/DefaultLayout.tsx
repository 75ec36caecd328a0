import { AppShell, Burger, Group } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { EulaGate } from '../../features/eula/index.ts';
import { BudgetBanner } from '../../features/usage/index.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { useLoadFloatingAfterPaint } from '../../ui/DeferredFloating.tsx';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';
import { Logo } from '../../ui/Logo.tsx';
import { setUi, useUiFlag } from '../../ui/uiStore.ts';
import { queryClient } from '../queryClient.ts';
import { LanguageSwitcher } from '../shell/LanguageSwitcher.tsx';
import { MainNav } from '../shell/MainNav.tsx';
import { UserMenu } from '../shell/UserMenu.tsx';
import classes from './DefaultLayout.module.css';

/** Whether a page of the shell has been shown since the browser loaded the document. */
let navigatedInApp = false;

/** The path the browser loaded the document at (before any navigation inside the app). */
function loadedPath(): string {
  const [entry] = performance.getEntriesByType('navigation');
  return new URL(entry?.name ?? window.location.href).pathname;
}

/** App bar + main navigation; below md (960 px) the navigation is a drawer behind the burger. */
export function DefaultShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const open = useUiFlag('mainSidebarModel');
  const { pathname } = useLocation();
  const lp = useLocalePath();
  const navId = useId();
  const burger = useRef<HTMLButtonElement>(null);
  const main = useRef<HTMLElement>(null);
  const mainId = useId();
  const close = () => setUi({ mainSidebarModel: false });

  // A new page (sign-in included) starts keyboard and screen-reader users at its content, not at
  // the top of the document; a page that focused a field of its own keeps it. The page the browser
  // itself loaded leaves the focus at the top, where the skip link is.
  useEffect(() => {
    const content = main.current;
    const loaded = !navigatedInApp && pathname === loadedPath();
    navigatedInApp = true;
    if (loaded || !content || content.contains(document.activeElement)) return;
    content.focus({ preventScroll: true });
  }, [pathname]);

  // The drawer closes after a navigation (its links close it too, even to the page already shown).
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every path change
  useEffect(() => {
    setUi({ mainSidebarModel: false });
  }, [pathname]);

  // Escape closes the open drawer and gives the focus back to the burger that opened it.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setUi({ mainSidebarModel: false });
      burger.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return (
    <QueryClientProvider client={queryClient}>
      <a href={`#${mainId}`} className={classes.skipLink}>
        {t('nav.skip_to_content')}
      </a>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 256, breakpoint: 'md', collapsed: { mobile: !open } }}
        padding={0}
        className={classes.shell}
      >
        <AppShell.Header className={classes.header}>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                ref={burger}
                opened={open}
                onClick={() => setUi({ mainSidebarModel: !open })}
                hiddenFrom="md"
                size="sm"
                aria-label={t(open ? 'nav.close' : 'nav.open')}
                aria-expanded={open}
                aria-controls={navId}
              />
              <Link to={lp('/')} className={classes.brand} aria-label={t('nav.home')}>
                <Logo name={t('app.name')} size={30} />
              </Link>
            </Group>
            <Group gap={4} wrap="nowrap">
              <LanguageSwitcher compact />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar id={navId} className={classes.navbar}>
          <MainNav onNavigate={close} />
        </AppShell.Navbar>
        <AppShell.Main ref={main} id={mainId} tabIndex={-1} className={classes.main}>
          <BudgetBanner />
          {children}
        </AppShell.Main>
      </AppShell>
      <EulaGate />
    </QueryClientProvider>
  );
}

export default function DefaultLayout() {
  // The shell's tooltips and menus are fetched once this layout has painted (under ChatsLayout the
  // chat view waits for its messages instead).
  useLoadFloatingAfterPaint();
  return (
    <DefaultShell>
      <div className={classes.content}>
        <Outlet />
      </div>
    </DefaultShell>
  );
}
