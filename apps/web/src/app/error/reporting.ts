import { isChunkLoadError, reloadAfterChunkError } from '../../lib/build/chunkReload.ts';

export type ErrorSource = 'route' | 'window' | 'promise' | 'mount' | 'react';

type Reporter = (error: unknown, source: ErrorSource) => void;
const reporters = new Set<Reporter>();

/** Adds an error reporter (e.g. a monitoring service); returns its removal. */
export function onAppError(reporter: Reporter): () => void {
  reporters.add(reporter);
  return () => reporters.delete(reporter);
}

/** The app error hook: every error worth knowing about goes through here. */
export function reportError(error: unknown, source: ErrorSource): void {
  console.error(`[${source}]`, error);
  for (const reporter of reporters) {
    try {
      reporter(error, source);
    } catch {
      // a failing reporter must not hide the original error
    }
  }
}

/**
 * Reports uncaught errors and unhandled rejections; a chunk that failed to load (a new build
 * replaced it) reloads the page, at most once every 10 s.
 */
export function installGlobalErrorHandlers(
  target: Window = window,
  /** The URL being navigated to, if any: the reload goes there. */
  pendingHref: () => string = () => target.location.href,
): () => void {
  const onError = (event: ErrorEvent) => {
    reportError(event.error ?? event.message, 'window');
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    if (isChunkLoadError(event.reason) && reloadAfterChunkError(pendingHref())) {
      event.preventDefault();
      return;
    }
    reportError(event.reason, 'promise');
  };
  const onPreloadError = (event: Event) => {
    // Vite's event for a failed preload of a lazily imported chunk.
    if (reloadAfterChunkError(pendingHref())) event.preventDefault();
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
    target.removeEventListener('vite:preloadError', onPreloadError);
  };
}
