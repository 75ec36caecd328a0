import { useQuery } from '@tanstack/react-query';
import { getEulaStatus } from '../api.ts';

export const eulaKeys = {
  status: () => ['settings', 'eula'] as const,
};

export function useEulaStatus(enabled = true) {
  return useQuery({ queryKey: eulaKeys.status(), queryFn: getEulaStatus, enabled });
}
