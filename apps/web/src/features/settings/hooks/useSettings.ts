import type { DomainSettingsUpdate, ProfileUpdate } from '@assistente/contracts';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { accountSession, authServices } from '../../auth/index.ts';
import { eulaKeys } from '../../eula/index.ts';
import { type AuditListParams, createSettingsApi } from '../api.ts';

const settingsApi = () => createSettingsApi(authServices().accountHttp);

const settingsKeys = {
  all: ['settings'] as const,
  profile: () => [...settingsKeys.all, 'profile'] as const,
  sessions: () => [...settingsKeys.all, 'sessions'] as const,
  domain: (domain: string) => [...settingsKeys.all, 'domain', domain] as const,
  passwordPolicy: () => [...settingsKeys.all, 'password-policy'] as const,
  audit: (params: Omit<AuditListParams, 'cursor'>) => ['audit', params] as const,
};

export function useProfile() {
  return useQuery({ queryKey: settingsKeys.profile(), queryFn: () => settingsApi().getProfile() });
}

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileUpdate) => settingsApi().updateProfile(body),
    onSuccess: (profile) => {
      client.setQueryData(settingsKeys.profile(), profile);
      // The name shows in the shell (menu, greeting) straight away.
      const session = accountSession.getState();
      if (session.apiUser && session.apiUser._id === profile._id) {
        accountSession.setState({
          ...session,
          apiUser: { ...session.apiUser, displayName: profile.displayName },
        });
      }
    },
  });
}

export function usePasswordPolicy() {
  return useQuery({
    queryKey: settingsKeys.passwordPolicy(),
    queryFn: () => authServices().identity.getPasswordPolicy(),
    staleTime: 10 * 60_000,
  });
}

/** Re-authenticates with the current password, sets the new one and keeps this tab signed in. */
export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ current, next }: { current: string; next: string }) =>
      authServices().auth.changePassword(current, next),
    // Every other session ended: the list is not what it was.
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.sessions() }),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: settingsKeys.sessions(),
    queryFn: () => settingsApi().listSessions(),
    staleTime: 0,
  });
}

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => settingsApi().revokeSession(id),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.sessions() }),
  });
}

export function useRevokeAllSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keepCurrent: boolean) => settingsApi().revokeAllSessions(keepCurrent),
    onSuccess: (_result, keepCurrent) =>
      keepCurrent ? client.invalidateQueries({ queryKey: settingsKeys.sessions() }) : undefined,
  });
}

export function useDomainSettings(domain: string) {
  return useQuery({
    queryKey: settingsKeys.domain(domain),
    queryFn: () => settingsApi().getDomainSettings(domain),
  });
}

export function useUpdateDomainSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, body }: { domain: string; body: DomainSettingsUpdate }) =>
      settingsApi().updateDomainSettings(domain, body),
    onSuccess: (settings) => {
      client.setQueryData(settingsKeys.domain(settings.domain), settings);
      // A new version asks every user of the domain, the Admin included, to accept again.
      return Promise.all([
        client.invalidateQueries({ queryKey: eulaKeys.status() }),
        client.invalidateQueries({ queryKey: ['audit'] }),
      ]);
    },
  });
}

export function useAuditLog(params: Omit<AuditListParams, 'cursor'>) {
  return useInfiniteQuery({
    queryKey: settingsKeys.audit(params),
    queryFn: ({ pageParam }) => settingsApi().listAudit({ ...params, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    // Every administrative change writes to the log: opening the tab always reads it afresh.
    staleTime: 0,
  });
}
