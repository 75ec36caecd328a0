import type { AppContext } from '../../context.ts';
import { type BudgetRow, type BudgetsStore, budgetsStore } from './budgets-store.ts';
import type { LocalPeriod } from './local-holds.ts';
import { type ReportsStore, reportsStore } from './reports-store.ts';
import { type UsageStore, usageStore } from './store.ts';

/** Bus channel: a price changed (`{ model }`); every replica reads prices again. */
export const PRICES_CHANGED = 'usage.prices';

/** Bus channel: a domain's budgets changed (`{ domainId }`); every replica reads them again. */
export const BUDGETS_CHANGED = 'usage.budgets';

/** How long a replica trusts its copy of prices and time zones without a bus message. */
export const CACHE_MS = 30_000;

/** What every usage operation shares (docs/ARCHITECTURE.md#service-style): built once per app. */
export interface UsageState {
  ctx: AppContext;
  store: UsageStore;
  budgetsStore: BudgetsStore;
  reportsStore: ReportsStore;
  /** Each domain's budgets, and until when the copy is trusted. */
  budgets: Map<string, { rows: BudgetRow[]; until: number }>;
  /** Budget periods (`budgetId@startMs`) this replica knows have their row. */
  openPeriods: Set<string>;
  /** Where this process alone writes its database: its budget periods' counts and holds (local-holds.ts). */
  localPeriods: Map<string, LocalPeriod>;
  /** Every price row, oldest first per model, and until when the copy is trusted. */
  prices: { rows: Map<string, PriceRow[]>; until: number } | undefined;
  /** Each domain's time zone, and until when it is trusted. */
  zones: Map<string, { zone: string; until: number }>;
  unsubscribe: () => void;
  unsubscribeBudgets: () => void;
}

export type PriceRow = Awaited<ReturnType<UsageStore['allPrices']>>[number];

export function createUsageState(ctx: AppContext): UsageState {
  const state: UsageState = {
    ctx,
    store: usageStore(ctx.db),
    budgetsStore: budgetsStore(ctx.db),
    reportsStore: reportsStore(ctx.db),
    budgets: new Map(),
    openPeriods: new Set(),
    localPeriods: new Map(),
    prices: undefined,
    zones: new Map(),
    unsubscribe: ctx.bus.subscribe(PRICES_CHANGED, () => {
      state.prices = undefined;
    }),
    unsubscribeBudgets: ctx.bus.subscribe(BUDGETS_CHANGED, (message) => {
      const domainId = (message as { domainId?: unknown } | undefined)?.domainId;
      if (typeof domainId === 'string') state.budgets.delete(domainId);
    }),
  };
  return state;
}

/** The zone a domain counts its days in (cached: it changes rarely, and a report may lag 30 s). */
export async function zoneOf(s: UsageState, domainId: string): Promise<string> {
  const hit = s.zones.get(domainId);
  if (hit && hit.until > Date.now()) return hit.zone;
  const zone = await s.ctx.services.organisation.domainTimeZone(domainId);
  s.zones.set(domainId, { zone, until: Date.now() + CACHE_MS });
  return zone;
}

export function close(s: UsageState): void {
  s.unsubscribe();
  s.unsubscribeBudgets();
}
