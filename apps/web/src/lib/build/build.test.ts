import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILD_CHECK_INTERVAL_MS, BuildWatcher } from './appManifest.ts';
import { CHUNK_RELOAD_GUARD_MS, isChunkLoadError, reloadAfterChunkError } from './chunkReload.ts';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe('chunk load failure', () => {
  it('recognises failed dynamic imports', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });

  it('reloads at most once every 10 s', () => {
    expect(CHUNK_RELOAD_GUARD_MS).toBe(10_000);
    const storage = memoryStorage();
    const load = vi.fn();
    let now = 1_000_000;
    const deps = { storage, now: () => now, load, online: () => true };
    expect(reloadAfterChunkError('/chats', deps)).toBe(true);
    expect(load).toHaveBeenCalledWith('/chats');
    now += 9_999;
    expect(reloadAfterChunkError('/chats', deps)).toBe(false);
    now += 1;
    expect(reloadAfterChunkError('/users', deps)).toBe(true);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not reload while the browser is offline, and does once it is back', () => {
    const load = vi.fn();
    let online = false;
    const deps = { storage: memoryStorage(), now: () => 1_000_000, load, online: () => online };
    expect(reloadAfterChunkError('/chats', deps)).toBe(false);
    expect(load).not.toHaveBeenCalled();
    online = true;
    expect(reloadAfterChunkError('/chats', deps)).toBe(true);
    expect(load).toHaveBeenCalledWith('/chats');
  });
});

describe('build watcher', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const respond = (id: string) =>
    vi.fn(
      async (_url: RequestInfo | URL) => new Response(JSON.stringify({ id, timestamp: 1 }), { status: 200 }),
    );

  it('notices a newer build from builds/latest.json', async () => {
    const fetch = respond('build-2');
    const watcher = new BuildWatcher({
      currentId: 'build-1',
      fetch: fetch as unknown as typeof globalThis.fetch,
    });
    await expect(watcher.check()).resolves.toBe(true);
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/builds/latest.json');
  });

  it('stays quiet for the same build and on failures', async () => {
    const same = new BuildWatcher({ currentId: 'b', fetch: respond('b') as unknown as typeof fetch });
    await expect(same.check()).resolves.toBe(false);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = new BuildWatcher({
      currentId: 'b',
      fetch: (async () => {
        throw new TypeError('offline');
      }) as typeof fetch,
    });
    await expect(failing.check()).resolves.toBe(false);
  });

  it('checks every hour and on focus', async () => {
    vi.useFakeTimers();
    expect(BUILD_CHECK_INTERVAL_MS).toBe(3_600_000);
    const fetch = respond('b');
    const events = new EventTarget();
    const watcher = new BuildWatcher({
      currentId: 'b',
      fetch: fetch as unknown as typeof globalThis.fetch,
      events: events as unknown as Window,
    });
    watcher.start();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    events.dispatchEvent(new Event('focus'));
    expect(fetch).toHaveBeenCalledTimes(2);
    watcher.stop();
  });

  it("loads this build's route rules once, logging failures only", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetch = vi.fn(async () => {
      throw new TypeError('offline');
    });
    const watcher = new BuildWatcher({ currentId: 'b1', fetch: fetch as unknown as typeof globalThis.fetch });
    await expect(watcher.routeRules()).resolves.toBeNull();
    await watcher.routeRules();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith('/builds/meta/b1.json');
    expect(warn).toHaveBeenCalled();
  });
});
