import type { SantitoCreate, SantitoUpdate } from '@assistente/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { productServices } from '../../auth/index.ts';
import { createSantitosApi } from '../api.ts';

export const santitoKeys = {
  all: ['santitos'] as const,
  list: (q: string) => ['santitos', 'list', q] as const,
  one: (id: string) => ['santitos', 'one', id] as const,
};

function santitosApi() {
  return createSantitosApi(productServices().accountHttp);
}

/** The santitos the user may use, page by page. */
export function useSantitos(q = '', enabled = true) {
  return useInfiniteQuery({
    queryKey: santitoKeys.list(q),
    queryFn: ({ pageParam }) => santitosApi().list({ cursor: pageParam, q }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

export function useSantito(id: string | null | undefined, enabled = true) {
  return useQuery({
    queryKey: santitoKeys.one(id ?? ''),
    queryFn: () => santitosApi().get(id ?? ''),
    enabled: enabled && Boolean(id),
    retry: false,
  });
}

export function useSaveSantito() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: null; body: SantitoCreate } | { id: string; body: SantitoUpdate }) =>
      input.id === null ? santitosApi().create(input.body) : santitosApi().update(input.id, input.body),
    onSuccess: (santito) => {
      client.setQueryData(santitoKeys.one(santito._id), santito);
      void client.invalidateQueries({ queryKey: ['santitos', 'list'] });
    },
  });
}

export function useDeleteSantito() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => santitosApi().remove(id),
    onSuccess: (_r, id) => {
      client.removeQueries({ queryKey: santitoKeys.one(id) });
      void client.invalidateQueries({ queryKey: ['santitos', 'list'] });
    },
  });
}
