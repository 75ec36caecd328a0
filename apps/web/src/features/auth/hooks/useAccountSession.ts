import { useStore } from '@mantine/store';
import { type AccountSession, accountSession } from '../session.ts';

export function useAccountSession(): AccountSession {
  return useStore(accountSession);
}
