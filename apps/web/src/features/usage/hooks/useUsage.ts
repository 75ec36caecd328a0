import type { BudgetInput, PriceInput } from '@assistente/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { authServices } from '../../auth/index.ts';
import { createUsageApi, type SummaryParams } from '../api.ts';

const usageApi = () => createUsageApi(authServices().accountHttp);

/** The person's own usage and budgets: other features ask for it again when an answer ends. */
export const MY_USAGE_KEY = ['usage', 'me'] as const;

const usageKeys = {
  all: ['usage'] as const,
  summary: (params: SummaryParams) => [...usageKeys.all, 'summary', params] as const,
  me: () => MY_USAGE_KEY,
  budgets: (domain: string | null) => [...usageKeys.all, 'budgets', domain] as const,
  prices: () => [...usageKeys.all, 'prices'] as const,
  priceHistory: (model: string) => [...usageKeys.all, 'prices', model] as const,
};

/** One grouping of the organisation's usage over a range of its days. */
export function useUsageSummary(params: SummaryParams) {
  return useQuery({
    queryKey: usageKeys.summary(params),
    queryFn: () => usageApi().summary(params),
    placeholderData: keepPreviousData,
  });
}

/** The caller's own usage this month and the budgets that cover them (settings, the banner). */
export function useMyUsage(enabled = true) {
  return useQuery({
    queryKey: usageKeys.me(),
    queryFn: () => usageApi().me(),
    enabled,
    // Other tabs and the API spend too: read again now and then while a budget covers the person
    // (nobody else has a banner to show), and on coming back to the page.
    refetchInterval: (query) => (query.state.data?.budgets.length ? 120_000 : false),
    refetchOnWindowFocus: true,
  });
}

export function useBudgets(domain: string | null) {
  return useQuery({ queryKey: usageKeys.budgets(domain), queryFn: () => usageApi().budgets(domain) });
}

export function usePrices() {
  return useQuery({ queryKey: usageKeys.prices(), queryFn: () => usageApi().prices() });
}

export function usePriceHistory(model: string | null) {
  return useQuery({
    queryKey: usageKeys.priceHistory(model ?? ''),
    queryFn: () => usageApi().priceHistory(model ?? ''),
    enabled: model !== null,
  });
}

/** A budget or a price changes what every usage screen shows: all of them refetch. */
function useInvalidateUsage() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: usageKeys.all });
}

export function useSaveBudget() {
  const invalidate = useInvalidateUsage();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: BudgetInput }) =>
      id ? usageApi().updateBudget(id, body) : usageApi().createBudget(body),
    onSuccess: invalidate,
  });
}

export function useDeleteBudget() {
  const invalidate = useInvalidateUsage();
  return useMutation({ mutationFn: (id: string) => usageApi().removeBudget(id), onSuccess: invalidate });
}

export function useSetPrice() {
  const invalidate = useInvalidateUsage();
  return useMutation({
    mutationFn: ({ model, body }: { model: string; body: PriceInput }) => usageApi().setPrice(model, body),
    onSuccess: invalidate,
  });
}
