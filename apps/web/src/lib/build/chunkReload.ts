/** A failed chunk load reloads the page at most once every 10 s (docs/ARCHITECTURE.md#calling-the-api). */
export const CHUNK_RELOAD_GUARD_MS = 10_000;
const CHUNK_RELOAD_KEY = 'assistente:chunk-reload-at';

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading chunk [\w-]+ failed|Outdated Optimize Dep/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || CHUNK_ERROR.test(error.message);
}

export interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  now: () => number;
  /** Loads `url` (full page load). */
  load: (url: string) => void;
  /** Whether the browser thinks it has a network at all. */
  online: () => boolean;
}

function defaultDeps(): ReloadDeps {
  let storage: Storage | null = null;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = null;
  }
  return {
    storage,
    now: Date.now,
    load: (url) => window.location.assign(url),
    online: () => navigator.onLine !== false,
  };
}

/**
 * Reloads at `url` (the page being navigated to) after a chunk failed to load — a new build
 * replaced the old files — unless that already happened in the last 10 s (then the error
 * stands, avoiding a reload loop). Offline the chunk failed for want of a network, not because of
 * a new build: a reload would swap the page, and what the user typed, for the browser's error page,
 * so the error stands then too. Returns whether a reload was started.
 */
export function reloadAfterChunkError(url: string, deps: ReloadDeps = defaultDeps()): boolean {
  if (!deps.online()) return false;
  const last = Number(deps.storage?.getItem(CHUNK_RELOAD_KEY) ?? 0);
  const now = deps.now();
  if (Number.isFinite(last) && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  try {
    deps.storage?.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // Without storage there is no loop guard; reloading once is still the best recovery.
  }
  deps.load(url);
  return true;
}
