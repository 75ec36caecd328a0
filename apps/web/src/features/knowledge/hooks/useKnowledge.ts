import type { KnowledgeSourceCreate } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { productServices } from '../../auth/index.ts';
import { createKnowledgeApi } from '../api.ts';
import { EventJournal } from '../internal/liveCache.ts';
import { knowledgeKeys } from '../keys.ts';

export { knowledgeKeys };

/** The knowledge events this page received (useKnowledgeEvents), replayed onto every read. */
export const knowledgeJournal = new EventJournal();

export function knowledgeApi() {
  return createKnowledgeApi(productServices().accountHttp);
}

/**
 * A read that an event overtook (it names a row the answer lacks: stored after the read began) is
 * read again, a few times at most; the events that came meanwhile are applied to each answer.
 */
async function readUntilComplete<T>(read: () => Promise<{ value: T; complete: boolean }>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const { value, complete } = await read();
    if (complete || attempt >= 3) return value;
  }
}

/** The sources; their syncs' progress comes pushed (useKnowledgeEvents), not polled. */
export function useKnowledgeSources() {
  return useQuery({
    queryKey: knowledgeKeys.list,
    queryFn: () =>
      readUntilComplete(async () => {
        const mark = knowledgeJournal.mark();
        const read = knowledgeJournal.replaySources(await knowledgeApi().list(), mark);
        return { value: read.list, complete: read.complete };
      }),
  });
}

/** A source's documents; their indexing comes pushed (useKnowledgeEvents), not polled. */
export function useKnowledgeDocuments(id: string, enabled: boolean) {
  return useQuery({
    queryKey: knowledgeKeys.documents(id),
    queryFn: () =>
      readUntilComplete(async () => {
        const mark = knowledgeJournal.mark();
        const read = knowledgeJournal.replayDocuments(id, await knowledgeApi().documents(id), mark);
        return { value: read.docs, complete: read.complete };
      }),
    enabled,
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

/** Tells the lists a document was uploaded (its indexing then comes pushed). */
export function useUploaded() {
  const invalidate = useInvalidateSources();
  return (id: string) => invalidate(id);
}
