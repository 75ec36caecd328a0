import '@assistente/contracts/jitless';
import './app/styles.ts';
import { StrictMode } from 'react';
import { App } from './app/App.tsx';
import { bootPage } from './app/bootPage.tsx';
import { createAppRouter, pendingHref } from './app/router/router.ts';
import { initAuthServices } from './features/auth/index.ts';
import { setLanguage } from './lib/i18n/index.ts';
import { resolveBrowserLocale } from './lib/i18n/locale.ts';
import { ErrorPage } from './ui/ErrorPage.tsx';
import { setUi } from './ui/uiStore.ts';

const container = document.getElementById('root');
if (container) {
  void bootPage(container, {
    language: setLanguage(resolveBrowserLocale(window.location.pathname).locale),
    pendingHref,
    errorPage: <ErrorPage statusCode={500} />,
    onBuildWatcher: (watcher) => void watcher.routeRules(),
    render: (config, updateAvailable) => {
      initAuthServices(config, { setLoadingAuth: (loading) => setUi({ loadingAuthPlugin: loading }) });
      return (
        <StrictMode>
          <App router={createAppRouter({ updateAvailable })} />
        </StrictMode>
      );
    },
  });
}
