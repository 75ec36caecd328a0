import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createMemoryApi } from '../api.ts';

const memoryApi = () => createMemoryApi(authServices().accountHttp);

export const memoryKeys = {
  all: ['memory'] as const,
  mine: () => [...memoryKeys.all, 'mine'] as const,
};

/**
 * The caller's memories, whether their domain has memory on, and how many go into chats. Read
 * afresh each time the tab opens: the assistant may have saved one in a chat since.
 */
export function useMemories() {
  return useQuery({
    queryKey: memoryKeys.mine(),
    queryFn: () => memoryApi().list(),
    refetchOnMount: 'always',
  });
}

/** Every change to one's memories changes the list and how many of them chats are given. */
function useMemoryMutation<T>(mutationFn: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: memoryKeys.mine() }),
  });
}

export const useAddMemory = () => useMemoryMutation((text: string) => memoryApi().create(text));

export const useUpdateMemory = () =>
  useMemoryMutation(({ id, text }: { id: string; text: string }) => memoryApi().update(id, text));

export const useDeleteMemory = () => useMemoryMutation((id: string) => memoryApi().remove(id));

/** An Admin turns memory on or off for their domain: the list says so at once. */
export function useSetMemoryEnabled() {
  return useMemoryMutation((enabled: boolean) => memoryApi().putSettings(enabled));
}
