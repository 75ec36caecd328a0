import { createBrowserRouter, createPath } from 'react-router';
import { accountSession, isAuthenticated, isPremium } from '../../features/auth/index.ts';
import { setLanguage } from '../../lib/i18n/index.ts';
import { rememberLocale, resolveBrowserLocale } from '../../lib/i18n/locale.ts';
import { waitForAuth } from '../../ui/uiStore.ts';
import { createRootLoader } from './rootLoader.ts';
import { createRoutes } from './routes.tsx';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

let router: AppRouter | null = null;

/** The URL being navigated to, else the current one. */
export function pendingHref(): string {
  const location = router?.state.navigation.location;
  return location ? new URL(createPath(location), window.location.origin).href : window.location.href;
}

function hashOf(pathname: string): string {
  const pending = router?.state.navigation.location;
  if (pending && pending.pathname === pathname) return pending.hash;
  return window.location.pathname === pathname ? window.location.hash : '';
}

/** What the guards look at; a change re-runs them for the current page. */
function guardKey(): string {
  const session = accountSession.getState();
  return [isAuthenticated(session), isPremium(session.domain), session.apiUser?.role ?? ''].join('|');
}

/** Creates the browser router and keeps its guards in step with the session and new builds. */
export function createAppRouter(options: { updateAvailable?: () => boolean } = {}): AppRouter {
  const rootLoader = createRootLoader({
    resolveLocale: resolveBrowserLocale,
    rememberLocale,
    setLanguage,
    waitForAuth,
    accountSession: () => accountSession.getState(),
    hashOf,
  });
  const created = createBrowserRouter(createRoutes({ rootLoader, pendingHref }));
  router = created;

  let lastKey = guardKey();
  accountSession.subscribe(() => {
    const key = guardKey();
    if (key === lastKey) return;
    lastKey = key;
    if (created.state.initialized) void created.revalidate();
  });

  const updateAvailable = options.updateAvailable;
  if (updateAvailable) {
    // A newer build is live: make the next navigation a full page load (Nuxt's app manifest).
    created.subscribe((state) => {
      const next = state.navigation.location;
      if (state.navigation.state === 'loading' && next && updateAvailable()) {
        window.location.assign(createPath(next));
      }
    });
  }
  return created;
}
