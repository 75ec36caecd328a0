import type { BudgetRow, Hold, PeriodKey } from './budgets-store.ts';
import type { UsageState } from './state.ts';

// Holds in this process's memory, for a server that alone writes its database (the embedded
// default: no other replica can admit against the same budget). A hold is then a check and an
// addition with no await between them, exact as the database's conditional UPDATE is, without a
// write commit before every first token; a crash takes its holds with it, so nothing stays held.
// What was used still goes to the database when a call settles (docs/ARCHITECTURE.md#usage-prices-and-budgets).

/** A budget period as this process counts it: used (as the database has it) and held now. */
export interface LocalPeriod {
  usedCostMicros: number;
  usedTokens: number;
  reservedCostMicros: number;
  reservedTokens: number;
}

export const localKey = (budgetId: string, start: Date | string) =>
  `${budgetId}@${new Date(start).getTime()}`;

/** The period's counts, read from its row (made, seeded, on first use) the first time. */
async function period(s: UsageState, key: PeriodKey): Promise<LocalPeriod> {
  const k = localKey(key.budget.id, key.start);
  const known = s.localPeriods.get(k);
  if (known) return known;
  await s.budgetsStore.openPeriod(s.ctx.db, key);
  const [row] = await s.budgetsStore.periods([{ budgetId: key.budget.id, start: key.start }]);
  // Another call may have loaded it while this one waited: keep the first, with its holds.
  const loaded = s.localPeriods.get(k) ?? {
    usedCostMicros: row?.usedCostMicros ?? 0,
    usedTokens: row?.usedTokens ?? 0,
    reservedCostMicros: 0,
    reservedTokens: 0,
  };
  s.localPeriods.set(k, loaded);
  return loaded;
}

const fits = (b: BudgetRow, p: LocalPeriod, h: Hold) =>
  (b.limitCostMicros === null ||
    p.usedCostMicros + p.reservedCostMicros + h.costMicros <= b.limitCostMicros) &&
  (b.limitTokens === null || p.usedTokens + p.reservedTokens + h.tokens <= b.limitTokens);

/** Takes every hold, or none: the index of the first budget without room, else -1. */
export async function holdLocally(
  s: UsageState,
  keys: readonly PeriodKey[],
  holds: readonly Hold[],
): Promise<number> {
  const periods = await Promise.all(keys.map((k) => period(s, k)));
  // From here to the additions, no await: no other call can slip in between check and hold.
  const full = keys.findIndex((k, i) => !fits(k.budget, periods[i] as LocalPeriod, holds[i] as Hold));
  if (full >= 0) return full;
  for (const [i, p] of periods.entries()) {
    p.reservedCostMicros += (holds[i] as Hold).costMicros;
    p.reservedTokens += (holds[i] as Hold).tokens;
  }
  return -1;
}

/** Gives the holds back, counting `used` on their periods (the database got the same in the settle). */
export function closeLocally(
  s: UsageState,
  holds: readonly Hold[],
  used: { costMicros: number; tokens: number },
) {
  for (const h of holds) {
    const p = s.localPeriods.get(localKey(h.budgetId, h.periodStart));
    if (!p) continue;
    p.reservedCostMicros = Math.max(0, p.reservedCostMicros - h.costMicros);
    p.reservedTokens = Math.max(0, p.reservedTokens - h.tokens);
    p.usedCostMicros += used.costMicros;
    p.usedTokens += used.tokens;
  }
}
