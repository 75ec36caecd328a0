import type { KnowledgeSourceCreate, KnowledgeSourceUpdate } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { productServices } from '../../auth/index.ts';
import { createKnowledgeApi } from '../api.ts';

export const knowledgeKeys = {
  list: ['knowledge', 'sources'] as const,
  documents: (id: string) => ['knowledge', 'documents', id] as const,
  choices: ['knowledge', 'choices'] as const,
};

export function knowledgeApi() {
  return createKnowledgeApi(productServices().accountHttp);
}

/** The sources, polled while one syncs or indexes so progress shows as it happens. */
export function useKnowledgeSources() {
  return useQuery({
    queryKey: knowledgeKeys.list,
    queryFn: () => knowledgeApi().list(),
    refetchInterval: (q) => (q.state.data?.some((s) => s.status === 'syncing') ? 1500 : false),
  });
}

export function useKnowledgeDocuments(id: string, enabled: boolean) {
  return useQuery({
    queryKey: knowledgeKeys.documents(id),
    queryFn: () => knowledgeApi().documents(id),
    enabled,
    refetchInterval: (q) =>
      q.state.data?.some((d) => d.status === 'pending' || d.status === 'indexing') ? 1500 : false,
  });
}

export function useKnowledgeChoices(enabled = true) {
  return useQuery({ queryKey: knowledgeKeys.choices, queryFn: () => knowledgeApi().choices(), enabled });
}

function useInvalidateSources() {
  const client = useQueryClient();
  return (id?: string) => {
    void client.invalidateQueries({ queryKey: knowledgeKeys.list });
    void client.invalidateQueries({ queryKey: knowledgeKeys.choices });
    if (id) void client.invalidateQueries({ queryKey: knowledgeKeys.documents(id) });
  };
}

export function useCreateSource() {
  const invalidate = useInvalidateSources();
  return useMutation({
    mutationFn: (body: KnowledgeSourceCreate) => knowledgeApi().create(body),
    onSuccess: () => invalidate(),
  });
}

export function useUpdateSource() {
  const invalidate = useInvalidateSources();
  return useMutation({
    mutationFn: (input: { id: string; body: KnowledgeSourceUpdate }) =>
      knowledgeApi().update(input.id, input.body),
    onSuccess: (s) => invalidate(s.sourceId),
  });
}

export function useDeleteSource() {
  const invalidate = useInvalidateSources();
  return useMutation({
    mutationFn: (id: string) => knowledgeApi().remove(id),
    onSuccess: () => invalidate(),
  });
}

export function useSyncSource() {
  const invalidate = useInvalidateSources();
  return useMutation({
    mutationFn: (id: string) => knowledgeApi().sync(id),
    onSuccess: (s) => invalidate(s.sourceId),
  });
}

export function useDeleteDocument() {
  const invalidate = useInvalidateSources();
  return useMutation({
    mutationFn: (input: { id: string; documentId: string }) =>
      knowledgeApi().removeDocument(input.id, input.documentId),
    onSuccess: (_, input) => invalidate(input.id),
  });
}

/** Tells the lists a document was uploaded (its indexing is then polled). */
export function useUploaded() {
  const invalidate = useInvalidateSources();
  return (id: string) => invalidate(id);
}

/** Re-reads the sources' counts (after a source's documents finished indexing). */
export function useSettledDocuments() {
  const client = useQueryClient();
  return useCallback(() => void client.invalidateQueries({ queryKey: knowledgeKeys.list }), [client]);
}
