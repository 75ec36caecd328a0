import { isChunkLoadError, reloadAfterChunkError } from './build/chunkReload.ts';

/** Where a report comes from: the global handlers, React, or the part of the app that noticed it. */
export type ErrorSource =
  | 'route'
  | 'window'
  | 'promise'
  | 'mount'
  | 'react'
  | 'auth'
  | 'identity'
  | 'build'
  | 'i18n'
  | 'popup'
  | 'knowledge';

/** An error broke something; a warning is a failure the app worked around. */
export type ReportLevel = 'error' | 'warning';

type Reporter = (error: unknown, source: ErrorSource, level: ReportLevel) => void;
const reporters = new Set<Reporter>();

/** Adds an error reporter (e.g. a monitoring service); returns its removal. */
export function onAppError(reporter: Reporter): () => void {
  reporters.add(reporter);
  return () => reporters.delete(reporter);
}

function notify(error: unknown, source: ErrorSource, level: ReportLevel): void {
  for (const reporter of reporters) {
    try {
      reporter(error, source, level);
    } catch {
      // a failing reporter must not hide the original error
    }
  }
}

// The app's one way to the browser console (biome's noConsole holds everywhere else).

/** The app error hook: every error worth knowing about goes through here. */
export function reportError(error: unknown, source: ErrorSource): void {
  // biome-ignore lint/suspicious/noConsole: the reporter is where the app's logs leave it
  console.error(`[${source}]`, error);
  notify(error, source, 'error');
}

/** A failure the app recovered from (a background refresh, a best-effort write): logged, not shown. */
export function reportWarning(message: string, source: ErrorSource, error?: unknown): void {
  // biome-ignore lint/suspicious/noConsole: the reporter is where the app's logs leave it
  if (error === undefined) console.warn(message);
  // biome-ignore lint/suspicious/noConsole: the reporter is where the app's logs leave it
  else console.warn(message, error);
  notify(error ?? new Error(message), source, 'warning');
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
