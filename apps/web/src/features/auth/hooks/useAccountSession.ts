import { useStore } from '@mantine/store';
import { useStoreValue } from '../../../ui/hooks/useStoreValue.ts';
import { type AccountSession, accountSession, isPremium } from '../session.ts';

export function useAccountSession(): AccountSession {
  return useStore(accountSession);
}

export function usePremium(): boolean {
  return useStoreValue(accountSession, (s) => isPremium(s.domain));
}
