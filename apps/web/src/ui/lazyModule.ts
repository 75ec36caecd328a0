import { useEffect, useState } from 'react';

/** A module loaded on first need and then kept. */
export interface Lazy<M> {
  get(): M | null;
  load(): Promise<M>;
}

export function lazyModule<M>(loader: () => Promise<M>): Lazy<M> {
  let value: M | null = null;
  let pending: Promise<M> | null = null;
  return {
    get: () => value,
    load() {
      pending ??= loader().then(
        (module) => {
          value = module;
          return module;
        },
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
  };
}

/** The module once `need` is true and it has loaded; null before (the caller renders without it). */
export function useLazyModule<M>(lazy: Lazy<M>, need: boolean): M | null {
  const [module, setModule] = useState<M | null>(() => lazy.get());
  useEffect(() => {
    if (!need || module) return;
    let live = true;
    lazy.load().then(
      (loaded) => {
        if (live) setModule(() => loaded);
      },
      () => {
        // Offline or a new build: the text stays readable without highlighting.
      },
    );
    return () => {
      live = false;
    };
  }, [lazy, need, module]);
  return need ? (module ?? lazy.get()) : null;
}
