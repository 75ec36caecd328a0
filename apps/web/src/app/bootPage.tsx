import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { BuildWatcher } from '../lib/build/appManifest.ts';
import { loadRuntimeConfig } from '../lib/config/runtimeConfig.ts';
import { installGlobalErrorHandlers, reportError } from '../lib/reporting.ts';
import { AppProviders } from './AppProviders.tsx';

type RuntimeConfig = Awaited<ReturnType<typeof loadRuntimeConfig>>;

/**
 * What both entries (main.tsx, embedded.tsx) do before their own first render: error reporting,
 * the runtime configuration loaded beside the page's texts (a 500 page without it), and the
 * new-build check once the page is idle.
 */
export async function bootPage(
  container: HTMLElement,
  page: {
    language: Promise<unknown>;
    pendingHref?: () => string;
    errorPage: ReactNode;
    /** Runs once the build check has started (the app reads its route rules then). */
    onBuildWatcher?: (watcher: BuildWatcher) => void;
    render: (config: RuntimeConfig, updateAvailable: () => boolean) => ReactNode;
  },
): Promise<void> {
  installGlobalErrorHandlers(window, page.pendingHref);
  const root = createRoot(container, {
    onUncaughtError: (error) => reportError(error, 'react'),
    onCaughtError: (error) => reportError(error, 'react'),
  });

  let config: RuntimeConfig;
  try {
    [config] = await Promise.all([loadRuntimeConfig(), page.language]);
  } catch (error) {
    // Errors during mounting go to the app error hook; without configuration the page cannot run.
    reportError(error, 'mount');
    await page.language.catch(() => undefined);
    // Nothing is loading any more: the page's own progress bar goes.
    document.getElementById('boot-progress')?.remove();
    root.render(<AppProviders>{page.errorPage}</AppProviders>);
    return;
  }

  // The new-build check starts once the page is idle; it is not needed for the first screen.
  let buildWatcher: BuildWatcher | null = null;
  if (__BUILD_ID__ !== 'dev') {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 2000));
    idle(() => {
      void import('../lib/build/appManifest.ts').then(({ BuildWatcher }) => {
        buildWatcher = new BuildWatcher({ currentId: __BUILD_ID__, events: window });
        buildWatcher.start();
        page.onBuildWatcher?.(buildWatcher);
      });
    });
  }

  root.render(page.render(config, () => buildWatcher?.updateAvailable ?? false));
}
