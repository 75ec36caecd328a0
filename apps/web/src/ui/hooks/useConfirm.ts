import { useState } from 'react';

/**
 * What a confirmation dialog asks about, and why the confirmed action failed: the dialog stays
 * open with the reason, and closes once the action succeeds.
 */
export function useConfirm<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    target,
    error,
    ask: (next: T) => {
      setError(null);
      setTarget(next);
    },
    close: () => setTarget(null),
    run: async (action: (target: T) => Promise<void>, describe: (error: unknown, target: T) => string) => {
      if (target === null) return;
      setError(null);
      try {
        await action(target);
        setTarget(null);
      } catch (failure) {
        setError(describe(failure, target));
      }
    },
  };
}
