import type { RetentionSettings } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { RUN_POLL_MS } from '../../jobs/index.ts';
import { createRetentionApi } from '../api.ts';

const retentionApi = () => createRetentionApi(authServices().accountHttp);

export const retentionKeys = {
  all: ['retention'] as const,
  view: (domain: string) => [...retentionKeys.all, 'view', domain] as const,
  mine: () => [...retentionKeys.all, 'mine'] as const,
};

/** How long the notice's rule is taken as known: it changes when an Admin saves, seldom. */
const MINE_STALE_MS = 10 * 60_000;

/** A domain's rule with its job's last and next run; asked again each second while a run goes on. */
export function useRetentionView(domain: string) {
  return useQuery({
    queryKey: retentionKeys.view(domain),
    queryFn: () => retentionApi().get(domain),
    refetchInterval: (query) => (query.state.data?.lastRun?.status === 'running' ? RUN_POLL_MS : false),
  });
}

/** Saves a domain's rule; the caller's own notice may follow it. */
export function useSaveRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, body }: { domain: string; body: RetentionSettings }) =>
      retentionApi().put(domain, body),
    onSuccess: (view, { domain }) => {
      client.setQueryData(retentionKeys.view(domain), view);
      return client.invalidateQueries({ queryKey: retentionKeys.mine() });
    },
  });
}

/** Reads a domain's view again (a run was started from it). */
export function useRefreshRetentionView() {
  const client = useQueryClient();
  return (domain: string) => client.invalidateQueries({ queryKey: retentionKeys.view(domain) });
}

/**
 * The rule over the caller's own chats, for the chats list's notice: one request per session and
 * ten minutes, however often the list mounts.
 */
export function useMyRetention() {
  return useQuery({
    queryKey: retentionKeys.mine(),
    queryFn: () => retentionApi().mine(),
    staleTime: MINE_STALE_MS,
    refetchOnWindowFocus: false,
    retry: false,
  });
}
