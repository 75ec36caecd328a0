import type { VirtualAccountCreate, VirtualAccountUpdate } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createEmbedsApi } from '../api.ts';

const embedKeys = { list: ['embeds', 'list'] as const };

function embedsApi() {
  return createEmbedsApi(authServices().accountHttp);
}

export function useEmbeds() {
  return useQuery({ queryKey: embedKeys.list, queryFn: () => embedsApi().list() });
}

function useInvalidateList() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: embedKeys.list });
}

export function useCreateEmbed() {
  const invalidate = useInvalidateList();
  return useMutation({
    mutationFn: (body: VirtualAccountCreate) => embedsApi().create(body),
    onSuccess: invalidate,
  });
}

export function useUpdateEmbed() {
  const invalidate = useInvalidateList();
  return useMutation({
    mutationFn: (input: { id: string; body: VirtualAccountUpdate }) =>
      embedsApi().update(input.id, input.body),
    onSuccess: invalidate,
  });
}

export function useDeleteEmbed() {
  const invalidate = useInvalidateList();
  return useMutation({ mutationFn: (id: string) => embedsApi().remove(id), onSuccess: invalidate });
}

export function useRotateEmbedSecret() {
  const invalidate = useInvalidateList();
  return useMutation({ mutationFn: (id: string) => embedsApi().rotateSecret(id), onSuccess: invalidate });
}
