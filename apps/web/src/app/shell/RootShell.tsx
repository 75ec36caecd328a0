import { useEffect } from 'react';
import { Outlet, useMatches, useNavigation } from 'react-router';
import { useTranslation } from '../../lib/i18n/index.ts';
import { FullPageSpinner } from '../../ui/FullPageSpinner.tsx';
import { TopProgressBar } from '../../ui/TopProgressBar.tsx';
import { setUi, useUiFlag } from '../../ui/uiStore.ts';
import { PopupHost } from '../popup/PopupHost.tsx';
import { leafMeta } from '../router/handles.ts';
import { ScrollManager } from '../router/ScrollManager.tsx';

function useDocumentTitle(): void {
  const matches = useMatches();
  const { t } = useTranslation();
  const meta = leafMeta(matches);
  const appName = t('app.name');
  const pageTitle = meta ? t(meta.titleKey) : '';
  useEffect(() => {
    document.title = pageTitle && pageTitle !== appName ? `${pageTitle} · ${appName}` : appName;
  }, [pageTitle, appName]);
}

/** The app shell (docs/ARCHITECTURE.md#shell-routes-and-guards): progress bar, spinner while auth loads, the routed page and the popup. */
export function RootShell() {
  const navigation = useNavigation();
  const loadingApp = useUiFlag('loadingApp');
  const loadingAuth = useUiFlag('loadingAuthPlugin');
  const { t } = useTranslation();
  useDocumentTitle();

  useEffect(() => {
    setUi({ loadingApp: navigation.state !== 'idle' });
  }, [navigation.state]);

  return (
    <>
      <TopProgressBar active={loadingApp || loadingAuth} label={t('app.loading')} />
      <ScrollManager />
      {loadingAuth ? <FullPageSpinner label={t('app.loading')} /> : <Outlet />}
      <PopupHost />
    </>
  );
}

/** Shown by the router while the first route's loaders run (auth included). */
export function InitialSpinner() {
  const { t } = useTranslation();
  return (
    <>
      <TopProgressBar active label={t('app.loading')} />
      <FullPageSpinner label={t('app.loading')} />
    </>
  );
}
