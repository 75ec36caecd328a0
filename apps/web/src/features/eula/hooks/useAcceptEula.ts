import type { User } from '@assistente/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountSession } from '../../auth/index.ts';
import { acceptEula } from '../api.ts';
import { eulaKeys } from './useEulaStatus.ts';

/** Accepts the terms for the signed-in user and puts the stored record in the session. */
export function useAcceptEula() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ user, version }: { user: User; version?: string }) => acceptEula(user, version),
    onSuccess: (updated) => {
      const session = accountSession.getState();
      if (session.apiUser?._id === updated._id) accountSession.setState({ ...session, apiUser: updated });
      return client.invalidateQueries({ queryKey: eulaKeys.status() });
    },
  });
}
