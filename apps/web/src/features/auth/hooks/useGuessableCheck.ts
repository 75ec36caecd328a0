import { useEffect, useMemo, useState } from 'react';
import type { GuessableCheck } from '../passwordPolicy.ts';

let loading: Promise<(password: string, email?: string) => unknown> | null = null;

/**
 * The server's guessable-password rule for `email`'s account, loaded on first use: its word list
 * is a chunk of its own, so the login page never downloads it. Null until it has loaded.
 */
export function useGuessableCheck(email: string | undefined): GuessableCheck | null {
  const [rule, setRule] = useState<((password: string, email?: string) => unknown) | null>(null);
  useEffect(() => {
    let live = true;
    loading ??= import('@assistente/contracts/common-passwords').then((m) => m.guessable);
    void loading.then((guessable) => {
      if (live) setRule(() => guessable);
    });
    return () => {
      live = false;
    };
  }, []);
  return useMemo(
    () => (rule ? (password: string) => rule(password, email) !== undefined : null),
    [rule, email],
  );
}
