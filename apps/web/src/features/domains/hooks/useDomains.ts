import type { Domain, DomainCreate, DomainUpdate } from '@assistente/contracts';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { accountSession, authServices } from '../../auth/index.ts';
import { createDomainsApi, type DomainListParams } from '../api.ts';

const domainsApi = () => createDomainsApi(authServices().accountHttp);

/** The most domains a filter select offers (the API's largest page). */
const DOMAIN_OPTIONS_LIMIT = 200;

const domainKeys = {
  all: ['domains'] as const,
  lists: () => [...domainKeys.all, 'list'] as const,
  list: (params: Omit<DomainListParams, 'cursor'>) => [...domainKeys.lists(), params] as const,
  options: () => [...domainKeys.all, 'options'] as const,
  detail: (id: string) => [...domainKeys.all, 'detail', id] as const,
};

export function useDomainList(params: Omit<DomainListParams, 'cursor'>, enabled = true) {
  return useInfiniteQuery({
    queryKey: domainKeys.list(params),
    queryFn: ({ pageParam }) => domainsApi().list({ ...params, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The domains a SuperAdmin picks from in filters and the invite dialog. */
export function useDomainOptions(enabled = true) {
  return useQuery({
    queryKey: domainKeys.options(),
    queryFn: async () => (await domainsApi().list({ limit: DOMAIN_OPTIONS_LIMIT })).items,
    enabled,
  });
}

export function useDomain(id: string | null) {
  return useQuery({
    queryKey: domainKeys.detail(id ?? ''),
    queryFn: () => domainsApi().get(id ?? ''),
    enabled: id !== null,
  });
}

/** A change to the signed-in user's own domain (premium, name) shows at once in the shell. */
function syncSessionDomain(domain: Domain): void {
  const session = accountSession.getState();
  if (session.domain?._id === domain._id) accountSession.setState({ ...session, domain });
}

export function useCreateDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DomainCreate) => domainsApi().create(body),
    onSuccess: () => client.invalidateQueries({ queryKey: domainKeys.all }),
  });
}

export function useUpdateDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DomainUpdate }) => domainsApi().update(id, body),
    onSuccess: (domain) => {
      syncSessionDomain(domain);
      client.setQueryData(domainKeys.detail(domain._id), domain);
      return Promise.all([
        client.invalidateQueries({ queryKey: domainKeys.lists() }),
        client.invalidateQueries({ queryKey: domainKeys.options() }),
      ]);
    },
  });
}

export function useDeleteDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (domain: Pick<Domain, '_id'>) => domainsApi().remove(domain._id),
    onSuccess: (_void, domain) => {
      client.removeQueries({ queryKey: domainKeys.detail(domain._id) });
      return Promise.all([
        client.invalidateQueries({ queryKey: domainKeys.lists() }),
        client.invalidateQueries({ queryKey: domainKeys.options() }),
      ]);
    },
  });
}
