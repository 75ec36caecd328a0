import { reportWarning } from '../reporting.ts';

/** How often the app asks whether a newer build is deployed (also on window focus). */
export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export interface BuildInfo {
  id: string;
  timestamp: number;
}

function isBuildInfo(value: unknown): value is BuildInfo {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BuildInfo).id === 'string' &&
    typeof (value as BuildInfo).timestamp === 'number'
  );
}

export interface BuildWatcherOptions {
  /** This bundle's build id. */
  currentId: string;
  fetch?: typeof fetch;
  /** Where `builds/` is served from (the app's base path). */
  base?: string;
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
  intervalMs?: number;
}

/**
 * Polls `builds/latest.json` (Nuxt's app manifest): once another build is live, the next
 * navigation becomes a full page load so the new code is used.
 */
export class BuildWatcher {
  updateAvailable = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private meta: Promise<unknown> | null = null;
  private readonly fetchImpl: typeof fetch;
  private readonly base: string;

  constructor(private readonly options: BuildWatcherOptions) {
    this.fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
    this.base = (options.base ?? '/').replace(/\/?$/, '/');
  }

  /** Fetches the latest build id; true when it differs from ours. Failures are only logged. */
  async check(): Promise<boolean> {
    if (this.updateAvailable) return true;
    try {
      const response = await this.fetchImpl(`${this.base}builds/latest.json`, { cache: 'no-store' });
      if (!response.ok) return false;
      const latest: unknown = await response.json();
      if (isBuildInfo(latest) && latest.id !== this.options.currentId) this.updateAvailable = true;
    } catch (error) {
      reportWarning('Could not check for a new version', 'build', error);
    }
    return this.updateAvailable;
  }

  /** This build's route rules (`builds/meta/{id}.json`); a failure is only logged. */
  routeRules(): Promise<unknown> {
    this.meta ??= this.fetchImpl(`${this.base}builds/meta/${this.options.currentId}.json`)
      .then((response) => (response.ok ? response.json() : null))
      .catch((error: unknown) => {
        reportWarning('Could not load the route manifest', 'build', error);
        return null;
      });
    return this.meta;
  }

  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => void this.check(), this.options.intervalMs ?? BUILD_CHECK_INTERVAL_MS);
    this.options.events?.addEventListener('focus', this.onFocus);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.options.events?.removeEventListener('focus', this.onFocus);
  }

  private readonly onFocus = (): void => {
    void this.check();
  };
}
