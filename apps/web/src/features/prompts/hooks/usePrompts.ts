import type { PromptCreate, PromptUpdate } from '@assistente/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createPromptsApi, PICKER_LIMIT, type PromptListParams } from '../api.ts';

const promptsApi = () => createPromptsApi(authServices().accountHttp);

const promptKeys = {
  all: ['prompts'] as const,
  /** Every list: the settings tab's (by search and scope) and the composer's picker. */
  lists: () => [...promptKeys.all, 'list'] as const,
  list: (params: PromptListParams) => [...promptKeys.lists(), params] as const,
  picker: () => [...promptKeys.lists(), 'picker'] as const,
  versions: (id: string) => [...promptKeys.all, 'versions', id] as const,
};

/** The settings tab's list, page by page. */
export function usePromptList(params: PromptListParams) {
  return useInfiniteQuery({
    queryKey: promptKeys.list(params),
    queryFn: ({ pageParam }) => promptsApi().list(params, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * Every prompt the person sees, for the composer's picker: read once when `/` is first typed and
 * filtered in the browser as they type, so each key press answers at once.
 */
export function usePickerPrompts() {
  return useQuery({
    queryKey: promptKeys.picker(),
    queryFn: async () => (await promptsApi().list({}, undefined, PICKER_LIMIT)).items,
    staleTime: 60_000,
  });
}

/** A prompt's versions, newest first; read only while they are shown. */
export function usePromptVersions(id: string | null) {
  return useQuery({
    queryKey: promptKeys.versions(id ?? ''),
    queryFn: () => promptsApi().versions(id ?? ''),
    enabled: id !== null,
  });
}

/** A new prompt shows in the lists; it has no versions anyone has read yet. */
export function useCreatePrompt() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PromptCreate) => promptsApi().create(body),
    onSuccess: () => client.invalidateQueries({ queryKey: promptKeys.lists() }),
  });
}

/** An edit is a new version: the lists and that prompt's versions change. */
export function useUpdatePrompt() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PromptUpdate }) => promptsApi().update(id, body),
    onSuccess: (prompt) =>
      Promise.all([
        client.invalidateQueries({ queryKey: promptKeys.lists() }),
        client.invalidateQueries({ queryKey: promptKeys.versions(prompt.id) }),
      ]),
  });
}

/** Restoring makes the old content the newest version. */
export function useRestorePromptVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) => promptsApi().restore(id, version),
    onSuccess: (prompt) =>
      Promise.all([
        client.invalidateQueries({ queryKey: promptKeys.lists() }),
        client.invalidateQueries({ queryKey: promptKeys.versions(prompt.id) }),
      ]),
  });
}

/** A deleted prompt leaves the lists, and its versions are gone with it. */
export function useDeletePrompt() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => promptsApi().remove(id),
    onSuccess: (_done, id) => {
      client.removeQueries({ queryKey: promptKeys.versions(id) });
      return client.invalidateQueries({ queryKey: promptKeys.lists() });
    },
  });
}
