import { useQuery } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createEulaApi } from '../api.ts';

export const eulaKeys = {
  status: () => ['settings', 'eula'] as const,
};

export function useEulaStatus(enabled = true) {
  return useQuery({
    queryKey: eulaKeys.status(),
    queryFn: () => createEulaApi(authServices().accountHttp).status(),
    enabled,
  });
}
