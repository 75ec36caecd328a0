import type { ModelAccess, ProviderConfigCreate, ProviderConfigUpdate } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { productServices } from '../../auth/index.ts';
import { createProvidersApi } from '../api.ts';

const providerKeys = {
  list: ['providers', 'list'] as const,
  ai: ['providers', 'ai'] as const,
  /** What chats and santitos may pick; changes with the providers. */
  models: ['models'] as const,
  access: ['providers', 'access'] as const,
};

function providersApi() {
  return createProvidersApi(productServices().chatsHttp);
}

export function useProviders() {
  return useQuery({ queryKey: providerKeys.list, queryFn: () => providersApi().list() });
}

/** The models the user may pick (domain and instance providers) and the default one. */
export function useModels(enabled = true) {
  return useQuery({
    queryKey: providerKeys.models,
    queryFn: () => providersApi().listModels(),
    staleTime: 5 * 60_000,
    enabled,
  });
}

export function useAiSettings() {
  return useQuery({ queryKey: providerKeys.ai, queryFn: () => providersApi().getAi() });
}

function useInvalidateModels() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: providerKeys.list });
    void client.invalidateQueries({ queryKey: providerKeys.models });
    void client.invalidateQueries({ queryKey: providerKeys.ai });
  };
}

export function useSaveProvider() {
  const invalidate = useInvalidateModels();
  return useMutation({
    mutationFn: (
      input: { id: null; body: ProviderConfigCreate } | { id: string; body: ProviderConfigUpdate },
    ) =>
      input.id === null ? providersApi().create(input.body) : providersApi().update(input.id, input.body),
    onSuccess: invalidate,
  });
}

export function useDeleteProvider() {
  const invalidate = useInvalidateModels();
  return useMutation({ mutationFn: (id: string) => providersApi().remove(id), onSuccess: invalidate });
}

export function useTestProvider() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => providersApi().test(id),
    onSuccess: () => void client.invalidateQueries({ queryKey: providerKeys.models }),
  });
}

export function useSaveDefaultModel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (model: string | null) => providersApi().putAi(model),
    onSuccess: (settings) => {
      client.setQueryData(providerKeys.ai, settings);
      void client.invalidateQueries({ queryKey: providerKeys.models });
    },
  });
}

/** The domain's model access rules (Admin). */
export function useModelAccess() {
  return useQuery({ queryKey: providerKeys.access, queryFn: () => providersApi().getAccess() });
}

/** Saving rules changes who sees which model: the model lists are read again too. */
export function useSaveModelAccess() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ModelAccess) => providersApi().putAccess(body),
    onSuccess: (saved) => {
      client.setQueryData(providerKeys.access, saved);
      return client.invalidateQueries({ queryKey: providerKeys.models });
    },
  });
}
