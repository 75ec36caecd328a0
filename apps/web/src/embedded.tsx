import '@assistente/contracts/jitless';
import './app/styles.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/AppProviders.tsx';
import { EmbeddedApp } from './app/embedded/EmbeddedApp.tsx';
import { initVisitorServices } from './features/auth/index.ts';
import type { BuildWatcher } from './lib/build/appManifest.ts';
import { loadRuntimeConfig } from './lib/config/runtimeConfig.ts';
import { setLanguage } from './lib/i18n/index.ts';
import { rememberLocale, resolveBrowserLocale } from './lib/i18n/locale.ts';
import { installGlobalErrorHandlers, reportError } from './lib/reporting.ts';
import { ErrorPage } from './ui/ErrorPage.tsx';
import { setUi } from './ui/uiStore.ts';

// The embedded chat's entry (embedded.html, DESIGN §11): a chat inside another site's iframe, for
// a visitor who never signs in. The server serves this page for /embedded/{id}/chats[/{chatId}];
// it carries what a visitor needs before they can send and nothing of the signed-in app.

async function boot(container: HTMLElement): Promise<void> {
  installGlobalErrorHandlers(window);
  const root = createRoot(container, {
    onUncaughtError: (error) => reportError(error, 'react'),
    onCaughtError: (error) => reportError(error, 'react'),
  });
  const { locale, prefix } = resolveBrowserLocale(window.location.pathname);
  if (prefix) rememberLocale(prefix);
  // The chat's texts come with the shell's: the page shows nothing else before the visitor sends.
  const language = setLanguage(locale, ['chat']);

  let config: Awaited<ReturnType<typeof loadRuntimeConfig>>;
  try {
    [config] = await Promise.all([loadRuntimeConfig(), language]);
  } catch (error) {
    reportError(error, 'mount');
    await language.catch(() => undefined);
    document.getElementById('boot-progress')?.remove();
    root.render(
      <AppProviders>
        <ErrorPage statusCode={500} renderBack={() => null} />
      </AppProviders>,
    );
    return;
  }

  initVisitorServices(config);
  // No account session on this page: nothing of it to wait for.
  setUi({ loadingAuthPlugin: false });

  // A newer build live: the next move to another page of the chat loads it in full.
  let buildWatcher: BuildWatcher | null = null;
  if (__BUILD_ID__ !== 'dev') {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 2000));
    idle(() => {
      void import('./lib/build/appManifest.ts').then(({ BuildWatcher }) => {
        buildWatcher = new BuildWatcher({ currentId: __BUILD_ID__, events: window });
        buildWatcher.start();
      });
    });
  }

  root.render(
    <StrictMode>
      <EmbeddedApp updateAvailable={() => buildWatcher?.updateAvailable ?? false} />
    </StrictMode>,
  );
}

const container = document.getElementById('root');
if (container) void boot(container);
