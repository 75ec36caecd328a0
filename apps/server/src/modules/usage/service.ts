import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import * as admission from './admission.ts';
import * as budgets from './budgets.ts';
import * as calls from './calls.ts';
import * as ledger from './ledger.ts';
import * as prices from './prices.ts';
import * as reports from './reports.ts';
import * as state from './state.ts';

/**
 * Usage, prices and budgets (docs/ARCHITECTURE.md#usage-prices-and-budgets): every settled model
 * call goes to the ledger through `record`. This object only names the operations
 * (docs/ARCHITECTURE.md#service-style).
 */
export function usageService(ctx: AppContext) {
  const s = state.createUsageState(ctx);
  return withState(s, {
    begin: calls.begin,
    record: ledger.record,
    pseudonymise: ledger.pseudonymise,
    listBudgets: budgets.listBudgets,
    createBudget: budgets.createBudget,
    updateBudget: budgets.updateBudget,
    deleteBudget: budgets.deleteBudget,
    budgetStatuses: budgets.budgetStatuses,
    sweepReservations: admission.sweepReservations,
    summary: reports.summary,
    me: reports.me,
    listPrices: prices.listPrices,
    priceHistory: prices.priceHistory,
    setPrice: prices.setPrice,
    close: state.close,
  });
}

export type UsageService = ReturnType<typeof usageService>;
