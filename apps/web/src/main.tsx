import '@assistente/contracts/jitless';
import './app/styles.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { AppProviders } from './app/AppProviders.tsx';
import { createAppRouter, pendingHref } from './app/router/router.ts';
import { initAuthServices } from './features/auth/index.ts';
import type { BuildWatcher } from './lib/build/appManifest.ts';
import { loadRuntimeConfig } from './lib/config/runtimeConfig.ts';
import { setLanguage } from './lib/i18n/index.ts';
import { resolveBrowserLocale } from './lib/i18n/locale.ts';
import { installGlobalErrorHandlers, reportError } from './lib/reporting.ts';
import { ErrorPage } from './ui/ErrorPage.tsx';
import { setUi } from './ui/uiStore.ts';

async function boot(container: HTMLElement): Promise<void> {
  installGlobalErrorHandlers(window, pendingHref);
  const root = createRoot(container, {
    onUncaughtError: (error) => reportError(error, 'react'),
    onCaughtError: (error) => reportError(error, 'react'),
  });
  const language = setLanguage(resolveBrowserLocale(window.location.pathname).locale);

  let config: Awaited<ReturnType<typeof loadRuntimeConfig>>;
  try {
    [config] = await Promise.all([loadRuntimeConfig(), language]);
  } catch (error) {
    // Errors during mounting go to the app error hook; without configuration the app cannot run.
    reportError(error, 'mount');
    await language.catch(() => undefined);
    // Nothing is loading any more: the page's own progress bar goes.
    document.getElementById('boot-progress')?.remove();
    root.render(
      <AppProviders>
        <ErrorPage statusCode={500} />
      </AppProviders>,
    );
    return;
  }

  initAuthServices(config, { setLoadingAuth: (loading) => setUi({ loadingAuthPlugin: loading }) });

  // The new-build check starts once the page is idle; it is not needed for the first screen.
  let buildWatcher: BuildWatcher | null = null;
  if (__BUILD_ID__ !== 'dev') {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 2000));
    idle(() => {
      void import('./lib/build/appManifest.ts').then(({ BuildWatcher }) => {
        buildWatcher = new BuildWatcher({ currentId: __BUILD_ID__, events: window });
        buildWatcher.start();
        void buildWatcher.routeRules();
      });
    });
  }

  root.render(
    <StrictMode>
      <App router={createAppRouter({ updateAvailable: () => buildWatcher?.updateAvailable ?? false })} />
    </StrictMode>,
  );
}

const container = document.getElementById('root');
if (container) void boot(container);
