import type {
  Budget,
  BudgetInput,
  BudgetList,
  ModelPrice,
  PriceInput,
  PriceList,
  UsageMe,
  UsageSummary,
  UsageSummaryQuery,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { done, parsed, typed } from '../../lib/http/schemas.ts';

/** A summary's question; `domain` is a SuperAdmin's choice (null: the caller's own). */
export type SummaryParams = Omit<UsageSummaryQuery, 'domain' | 'format'> & { domain: string | null };

const byId = (id: string) => ({ params: { path: { id } } });
const byModel = (model: string) => ({ params: { path: { model } } });

/** The CSV of a summary, as the export route serves it (fetched with the caller's headers). */
export function exportPath({ from, to, groupBy, domain }: SummaryParams): string {
  const query = new URLSearchParams({ from, to, groupBy, format: 'csv' });
  if (domain) query.set('domain', domain);
  return `/api/v1/usage/export?${query}`;
}

/** Usage, budgets and prices (docs/ARCHITECTURE.md#usage-prices-and-budgets). */
export function createUsageApi(client: ApiClient) {
  return {
    summary: ({ domain, ...rest }: SummaryParams): Promise<UsageSummary> =>
      parsed(
        typed<UsageSummary>(),
        client.GET('/api/v1/usage/summary', { params: { query: { ...rest, domain: domain ?? undefined } } }),
      ),
    me: (): Promise<UsageMe> => parsed(typed<UsageMe>(), client.GET('/api/v1/usage/me')),
    budgets: (domain: string | null): Promise<BudgetList> =>
      parsed(
        typed<BudgetList>(),
        client.GET('/api/v1/usage/budgets', { params: { query: { domain: domain ?? undefined } } }),
      ),
    // A 4xx here is an answer (a scope already budgeted, a bad limit): shown at once, not retried.
    createBudget: (body: BudgetInput): Promise<Budget> =>
      parsed(typed<Budget>(), client.POST('/api/v1/usage/budgets', { body, retry: 0 })),
    updateBudget: (id: string, body: BudgetInput): Promise<Budget> =>
      parsed(typed<Budget>(), client.PUT('/api/v1/usage/budgets/{id}', { ...byId(id), body, retry: 0 })),
    removeBudget: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/usage/budgets/{id}', { ...byId(id), retry: 0 })),
    prices: (): Promise<PriceList> => parsed(typed<PriceList>(), client.GET('/api/v1/usage/prices')),
    priceHistory: (model: string): Promise<PriceList> =>
      parsed(typed<PriceList>(), client.GET('/api/v1/usage/prices/{model}/history', byModel(model))),
    setPrice: (model: string, body: PriceInput): Promise<ModelPrice> =>
      parsed(
        typed<ModelPrice>(),
        client.PUT('/api/v1/usage/prices/{model}', { ...byModel(model), body, retry: 0 }),
      ),
  };
}
