import { Locales, splitLocale } from '@assistente/contracts';
import {
  Component,
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
} from 'react';
import { BrowserRouter, Outlet, Route, Routes, useLocation } from 'react-router';
import { isChunkLoadError, reloadAfterChunkError } from '../../lib/build/chunkReload.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { ErrorPage } from '../../ui/ErrorPage.tsx';
import { FullPageSpinner } from '../../ui/FullPageSpinner.tsx';
import { TopProgressBar } from '../../ui/TopProgressBar.tsx';
import { AppProviders } from '../AppProviders.tsx';
import EmbeddedLayout from '../layouts/EmbeddedLayout.tsx';
import { PopupHost } from '../popup/PopupHost.tsx';
import { matchRouteMeta, type WebRoutePath } from '../router/routeMeta.ts';

// The embedded chat's page (docs/ARCHITECTURE.md#embedded-chat), an app of its own (embedded.html, src/embedded.tsx): the
// two pages of the embedded layout, unprefixed and under /en, /es, /pt-BR, as in the main app's
// route table. It has no account session and no guards; React Router's data router, which the
// main app needs for them, is replaced by app/embedded/router.tsx in its build.

type EmbeddedPath = Extract<WebRoutePath, `/embedded/${string}`>;
type PageModule = { default: ComponentType };

/** A page's code; a chunk gone with a new build reloads the page once (docs/ARCHITECTURE.md#calling-the-api), as the main app's routes do. */
function pageLoader(load: () => Promise<PageModule>): () => Promise<PageModule> {
  let pending: Promise<PageModule> | null = null;
  return () => {
    pending ??= load().catch((error: unknown) => {
      if (isChunkLoadError(error) && reloadAfterChunkError(window.location.href)) {
        // The page is reloading; never settle so nothing renders meanwhile.
        return new Promise<never>(() => {});
      }
      pending = null;
      throw error;
    });
    return pending;
  };
}

const loaders: Record<EmbeddedPath, () => Promise<PageModule>> = {
  '/embedded/:virtualAccountId/chats': pageLoader(
    () => import('../../features/embed-visitor/EmbeddedChatsPage.tsx'),
  ),
  '/embedded/:virtualAccountId/chats/:chatId': pageLoader(
    () => import('../../features/embed-visitor/EmbeddedChatPage.tsx'),
  ),
};
const pages = Object.entries(loaders).map(([path, load]) => ({ path, Page: lazy(load) }));

/** The spinner while the page's code loads (the main app's first-load spinner). */
function Loading() {
  const { t } = useTranslation();
  return (
    <>
      <TopProgressBar active label={t('app.loading')} />
      <FullPageSpinner label={t('app.loading')} />
    </>
  );
}

/** Inside another site's frame there is nowhere to go back to: the error page has no button. */
function NotFound() {
  return <ErrorPage statusCode={404} renderBack={() => null} />;
}

/** A page that failed (its code did not load, a bug) shows the error page; the root reports it. */
class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ErrorPage statusCode={500} renderBack={() => null} /> : this.props.children;
  }
}

/**
 * The shell of an embedded page: the page title, the popup, and the 404 page for an address the
 * route table refuses (a malformed id: docs/ARCHITECTURE.md#shell-routes-and-guards's validity check).
 */
function EmbeddedShell({ updateAvailable }: { updateAvailable: () => boolean }) {
  const { pathname, key } = useLocation();
  const { t } = useTranslation();
  const firstKey = useRef(key);
  const match = matchRouteMeta(splitLocale(pathname).path);
  const valid = match !== null && (!match.meta.validate || match.meta.validate(match.params));
  const appName = t('app.name');
  const pageTitle = valid ? t(match.meta.titleKey) : '';

  // A newer build is live (the app manifest): moving to another page loads it in full, new code
  // and all, before the page shows — the main app's rule for its navigations.
  useLayoutEffect(() => {
    if (key !== firstKey.current && updateAvailable()) window.location.reload();
  }, [key, updateAvailable]);

  useEffect(() => {
    document.title = pageTitle && pageTitle !== appName ? `${pageTitle} · ${appName}` : appName;
  }, [pageTitle, appName]);

  return (
    <>
      {/* Takes over from the page's own progress bar (#boot-progress) at the first render. */}
      <TopProgressBar active={false} label={t('app.loading')} />
      <PageBoundary>
        <Suspense fallback={<Loading />}>{valid ? <Outlet /> : <NotFound />}</Suspense>
      </PageBoundary>
      <PopupHost />
    </>
  );
}

/** The embedded chat's pages; `updateAvailable` says when a newer build is live. */
export function EmbeddedApp({ updateAvailable }: { updateAvailable: () => boolean }) {
  // Both pages come with the first: opening a chat from a new one never shows the spinner.
  useEffect(() => {
    for (const load of Object.values(loaders)) void load().catch(() => undefined);
  }, []);

  return (
    <AppProviders>
      <BrowserRouter>
        <Routes>
          <Route element={<EmbeddedShell updateAvailable={updateAvailable} />}>
            <Route element={<EmbeddedLayout />}>
              {['', ...Locales.map((locale) => `/${locale}`)].flatMap((prefix) =>
                pages.map(({ path, Page }) => (
                  <Route key={`${prefix}${path}`} path={`${prefix}${path}`} element={<Page />} />
                )),
              )}
            </Route>
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </AppProviders>
  );
}
