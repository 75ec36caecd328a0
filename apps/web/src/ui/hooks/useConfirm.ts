import { useState } from 'react';

/**
 * What a confirmation dialog asks about, and why the confirmed action failed: the dialog stays
 * open with the reason, and closes once the action succeeds.
 */
export function useConfirm<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => setTarget(null);
  const run = async (
    action: (target: T) => Promise<unknown>,
    describe: (error: unknown, target: T) => string,
  ) => {
    if (target === null) return;
    setError(null);
    try {
      await action(target);
      setTarget(null);
    } catch (failure) {
      setError(describe(failure, target));
    }
  };
  return {
    target,
    error,
    ask: (next: T) => {
      setError(null);
      setTarget(next);
    },
    close,
    run,
    /** A ConfirmDialog's `opened`, `error`, `onClose` and `onConfirm`, bound to this confirmation. */
    dialog: (action: (target: T) => Promise<unknown>, describe: (error: unknown, target: T) => string) => ({
      opened: target !== null,
      error,
      onClose: close,
      onConfirm: () => void run(action, describe),
    }),
  };
}
