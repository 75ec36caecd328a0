import { useEffect, useSyncExternalStore } from 'react';

/** A module loaded on first need and then kept. */
export interface Lazy<M> {
  /** The module once it has loaded; null before. */
  get(): M | null;
  /** Starts loading it (once; again after a failure). */
  load(): Promise<M>;
  /** Calls `onLoad` once the module has loaded; returns the unsubscribe. */
  subscribe(onLoad: () => void): () => void;
}

export function lazyModule<M>(loader: () => Promise<M>): Lazy<M> {
  let value: M | null = null;
  let pending: Promise<M> | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    load() {
      pending ??= loader().then(
        (module) => {
          value = module;
          for (const listener of [...listeners]) listener();
          return module;
        },
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
    subscribe(onLoad) {
      listeners.add(onLoad);
      return () => listeners.delete(onLoad);
    },
  };
}

/**
 * Runs `run` once the browser has painted what is on screen now (the next frame, then a task);
 * returns a cancel function. Without requestAnimationFrame (tests) it is a plain task.
 */
export function afterNextPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** The module, re-rendering the caller once it has loaded (it does not start the loading). */
export function useLoadedModule<M>(lazy: Lazy<M>): M | null {
  return useSyncExternalStore(lazy.subscribe, lazy.get, lazy.get);
}

/**
 * The module once `need` is true and it has loaded; null before (the caller renders without it).
 * With `afterPaint` the fetch starts only once what the caller rendered without it is on screen.
 */
export function useLazyModule<M>(lazy: Lazy<M>, need: boolean, afterPaint = false): M | null {
  const module = useLoadedModule(lazy);
  useEffect(() => {
    if (!need || module) return;
    const load = () => {
      lazy.load().catch(() => {
        // Offline or a new build: the caller keeps rendering without it.
      });
    };
    if (afterPaint) return afterNextPaint(load);
    load();
  }, [lazy, need, module, afterPaint]);
  return need ? module : null;
}
