import type { PiiSettings } from '@assistente/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createPiiApi } from '../api.ts';

const piiApi = () => createPiiApi(authServices().accountHttp);

const piiKeys = { settings: (domain: string) => ['pii-settings', domain] as const };

export function usePiiSettings(domain: string) {
  return useQuery({ queryKey: piiKeys.settings(domain), queryFn: () => piiApi().get(domain) });
}

/** Only this domain's settings changed: the saved ones replace them. */
export function useUpdatePiiSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, body }: { domain: string; body: PiiSettings }) => piiApi().put(domain, body),
    onSuccess: (saved, { domain }) => client.setQueryData(piiKeys.settings(domain), saved),
  });
}
