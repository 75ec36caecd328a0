import type { ApiKeyCreate } from '@assistente/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { type ApiKeyScope, createApiKeysApi } from '../api.ts';

const apiKeysApi = () => createApiKeysApi(authServices().accountHttp);

const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (scope: ApiKeyScope) => [...apiKeyKeys.all, scope] as const,
};

export function useApiKeys(scope: ApiKeyScope) {
  return useInfiniteQuery({
    queryKey: apiKeyKeys.list(scope),
    queryFn: ({ pageParam }) => apiKeysApi().list(scope, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** A new key is the caller's own, and one of their organisation's. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreate) => apiKeysApi().create(body),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

/** A revoked key leaves both lists it may be in. */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiKeysApi().revoke(id),
    onSuccess: () => client.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
