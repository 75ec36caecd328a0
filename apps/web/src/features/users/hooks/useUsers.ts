import type { User, UserCreate } from '@assistente/contracts';
import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { Page } from '../../../lib/http/paging.ts';
import { accountSession, authServices } from '../../auth/index.ts';
import { createUsersApi, type UserListParams } from '../api.ts';

const usersApi = () => createUsersApi(authServices().accountHttp);

const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: Omit<UserListParams, 'cursor'>) => [...userKeys.lists(), params] as const,
};

/** The users grid: filtered, sorted, keyset-paged ("load more"). */
export function useUserList(params: Omit<UserListParams, 'cursor'>) {
  return useInfiniteQuery({
    queryKey: userKeys.list(params),
    queryFn: ({ pageParam }) => usersApi().list({ ...params, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** Every loaded page shows the new record at once; the lists are then refetched (order, filters). */
function useReplaceUser() {
  const client = useQueryClient();
  return (user: User) => {
    client.setQueriesData<InfiniteData<Page<User>>>({ queryKey: userKeys.lists() }, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.map((item) => (item._id === user._id ? user : item)),
            })),
          }
        : data,
    );
    // Editing oneself (a name, by an Admin) shows in the shell too.
    const session = accountSession.getState();
    if (session.apiUser?._id === user._id) accountSession.setState({ ...session, apiUser: user });
    return client.invalidateQueries({ queryKey: userKeys.lists() });
  };
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, locale }: { body: UserCreate; locale: string }) => usersApi().create(body, locale),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

export function useUpdateUser() {
  const replace = useReplaceUser();
  return useMutation({
    mutationFn: (user: User) => authServices().accountApi.updateUser(user),
    onSuccess: replace,
  });
}

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (user: Pick<User, '_id'>) => usersApi().remove(user._id),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

/** Resending changes nothing the lists show. */
export function useResendInvitation() {
  return useMutation({
    mutationFn: ({ user, locale }: { user: Pick<User, '_id'>; locale: string }) =>
      usersApi().resendInvitation(user._id, locale),
  });
}

/** Puts a person under legal hold or releases them: their row's badge shows it at once. */
export function useSetLegalHold() {
  const replace = useReplaceUser();
  return useMutation({
    mutationFn: ({ user, hold }: { user: User; hold: boolean }) => usersApi().setLegalHold(user._id, hold),
    onSuccess: (result, { user }) => replace({ ...user, legalHold: result.hold }),
  });
}

export function useRevokeUserSessions() {
  return useMutation({ mutationFn: (user: Pick<User, '_id'>) => usersApi().revokeSessions(user._id) });
}
