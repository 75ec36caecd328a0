import type { ShareCreate, SharingSettings } from '@assistente/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createSharesApi, createSharingSettingsApi } from '../api.ts';

export const sharesApi = () => createSharesApi(authServices().chatsHttp);
const settingsApi = () => createSharingSettingsApi(authServices().accountHttp);

export const shareKeys = {
  all: ['shares'] as const,
  list: () => [...shareKeys.all, 'list'] as const,
  options: () => [...shareKeys.all, 'options'] as const,
  shared: (shareId: string) => [...shareKeys.all, 'shared', shareId] as const,
  settings: (domain: string) => ['sharing-settings', domain] as const,
};

/** The caller's own links, newest first, page by page. */
export function useShareList() {
  return useInfiniteQuery({
    queryKey: shareKeys.list(),
    queryFn: ({ pageParam }) => sharesApi().list(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** Whether the caller's organisation allows public links (the share dialog's third choice). */
export function useShareOptions(enabled = true) {
  return useQuery({ queryKey: shareKeys.options(), queryFn: () => sharesApi().options(), enabled });
}

/** A new link is one more of the caller's own. */
export function useCreateShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ chatId, body }: { chatId: string; body: ShareCreate }) => sharesApi().create(chatId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: shareKeys.list() }),
  });
}

/** A revoked link leaves the owner's list. */
export function useRevokeShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (shareId: string) => sharesApi().revoke(shareId),
    onSuccess: () => client.invalidateQueries({ queryKey: shareKeys.list() }),
  });
}

export function useSharingSettings(domain: string) {
  return useQuery({ queryKey: shareKeys.settings(domain), queryFn: () => settingsApi().get(domain) });
}

/** A changed setting changes what the share dialog offers too. */
export function useUpdateSharingSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, body }: { domain: string; body: SharingSettings }) =>
      settingsApi().put(domain, body),
    onSuccess: (saved, { domain }) => {
      client.setQueryData(shareKeys.settings(domain), saved);
      void client.invalidateQueries({ queryKey: shareKeys.options() });
    },
  });
}
