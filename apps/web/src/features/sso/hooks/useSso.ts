import type { SsoProviderCreate, SsoProviderUpdate } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createSsoApi } from '../api.ts';

const ssoKeys = { list: ['sso', 'providers'] as const };

function ssoApi() {
  return createSsoApi(authServices().accountHttp);
}

export function useSsoProviders() {
  return useQuery({ queryKey: ssoKeys.list, queryFn: () => ssoApi().list() });
}

export function useSaveSsoProvider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: null; body: SsoProviderCreate } | { id: string; body: SsoProviderUpdate }) =>
      input.id === null ? ssoApi().create(input.body) : ssoApi().update(input.id, input.body),
    onSuccess: () => void client.invalidateQueries({ queryKey: ssoKeys.list }),
  });
}

export function useDeleteSsoProvider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => ssoApi().remove(id),
    onSuccess: () => void client.invalidateQueries({ queryKey: ssoKeys.list }),
  });
}
