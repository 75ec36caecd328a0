import type { Tx } from '../../db/client.ts';
import { randomBase62 } from '../../lib/random-id.ts';
import type { BudgetRow, Hold } from './budgets-store.ts';
import type { CallStart } from './calls.ts';
import { costMicros, priceAt, pricesAll } from './costing.ts';
import { budgetExceeded, priceMissing } from './errors.ts';
import type { LedgerEntry } from './ledger.ts';
import { closeLocally, holdLocally } from './local-holds.ts';
import { dayIn, periodOf } from './periods.ts';
import { BUDGETS_CHANGED, CACHE_MS, type UsageState, zoneOf } from './state.ts';
import { estimateTokens, warmTokenizer } from './tokens.ts';

/**
 * How long a call's holds outlive a process that died before settling them: the sweep releases
 * them after this. A call that settles later still counts what it used.
 */
export const RESERVATION_TTL_MS = 10 * 60_000;

/** The holds one admitted call took (none when no budget covers it). */
export interface Reservation {
  id: string;
  holds: Hold[];
  /** Held in this process's memory (it alone writes its database), not in `budget_reservations`. */
  local?: true;
}

/** A domain's budgets (cached for CACHE_MS, dropped on BUDGETS_CHANGED from any replica). */
export async function domainBudgets(s: UsageState, domainId: string): Promise<BudgetRow[]> {
  const hit = s.budgets.get(domainId);
  if (hit && hit.until > Date.now()) return hit.rows;
  const rows = await s.budgetsStore.forDomain(domainId);
  s.budgets.set(domainId, { rows, until: Date.now() + CACHE_MS });
  if (rows.length > 0) void warmTokenizer();
  return rows;
}

/** Tells every replica (this one included) to read a domain's budgets again. */
export async function budgetsChanged(s: UsageState, domainId: string): Promise<void> {
  s.budgets.delete(domainId);
  await s.ctx.bus.publish(BUDGETS_CHANGED, { domainId });
}

/** The budgets that cover a call: its domain's, its department's and its person's. */
export function covering(rows: readonly BudgetRow[], entry: Pick<LedgerEntry, 'departmentId' | 'userId'>) {
  return rows.filter(
    (b) =>
      b.scopeKind === 'domain' ||
      (b.scopeKind === 'department' && entry.departmentId != null && b.scopeId === entry.departmentId) ||
      (b.scopeKind === 'user' && entry.userId != null && b.scopeId === entry.userId),
  );
}

/**
 * Reserves the call's worst case (its estimated input plus its output cap, priced) on every budget
 * that covers it, in one transaction, or refuses: BUDGET_EXCEEDED naming the first budget without
 * room and when it resets, PRICE_MISSING when a money budget covers a model with no price.
 */
export async function admit(s: UsageState, start: CallStart): Promise<Reservation | undefined> {
  const covered = covering(await domainBudgets(s, start.entry.domainId), start.entry);
  if (covered.length === 0) return undefined;
  const now = new Date();
  const needsPrice = covered.some((b) => b.limitCostMicros !== null);
  const price = needsPrice ? await priceAt(s, start.entry.model, now) : undefined;
  if (needsPrice && (!price || !pricesAll(price, { images: start.estimate.images ?? 0 }))) {
    s.ctx.metrics.budgetRefused('PRICE_MISSING');
    throw priceMissing(start.entry.model);
  }
  const [zone, inputTokens] = await Promise.all([
    zoneOf(s, start.entry.domainId),
    estimateTokens(start.estimate.input()),
  ]);
  const worst = {
    inputTokens,
    outputTokens: start.estimate.maxOutputTokens,
    images: start.estimate.images ?? 0,
  };
  const cost = price ? costMicros(price, worst) : 0;
  // A fixed order, so two calls never wait on each other's rows the other way round.
  const keys = [...covered]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((budget) => ({ budget, ...periodOf(budget.period, zone, now) }));
  const holds: Hold[] = keys.map((k) => ({
    budgetId: k.budget.id,
    periodStart: k.start.toISOString(),
    costMicros: cost,
    tokens: worst.inputTokens + worst.outputTokens,
  }));
  const id = `br_${randomBase62(20)}`;
  const expiresAt = new Date(now.getTime() + RESERVATION_TTL_MS);
  const refused = (k: (typeof keys)[number]) => {
    s.ctx.metrics.budgetRefused('BUDGET_EXCEEDED');
    return budgetExceeded({
      budgetId: k.budget.id,
      scope: k.budget.scopeKind,
      resetsAt: k.resetsAt.toISOString(),
    });
  };
  if (s.ctx.soleWriter) {
    const full = await holdLocally(
      s,
      keys.map((k) => ({ ...k, fromDay: dayIn(zone, k.start), toDay: dayIn(zone, k.resetsAt) })),
      holds,
    );
    if (full >= 0) throw refused(keys[full] as (typeof keys)[number]);
    return { id, holds, local: true };
  }
  await s.ctx.db.transaction(async (tx) => {
    for (const [i, k] of keys.entries()) {
      const open = `${k.budget.id}@${k.start.getTime()}`;
      if (!s.openPeriods.has(open)) {
        await s.budgetsStore.openPeriod(tx, {
          budget: k.budget,
          start: k.start,
          fromDay: dayIn(zone, k.start),
          toDay: dayIn(zone, k.resetsAt),
        });
      }
      const hold = holds[i] as Hold;
      if (!(await s.budgetsStore.hold(tx, k.budget, hold))) throw refused(k);
    }
    await s.budgetsStore.saveReservation(tx, id, holds, expiresAt);
  });
  // Known only once committed: a rolled-back transaction may have made no row.
  for (const k of keys) s.openPeriods.add(`${k.budget.id}@${k.start.getTime()}`);
  return { id, holds };
}

/** Gives back a reservation's holds, counting `used` (nothing, for a call that never ran). */
export async function close(
  s: UsageState,
  reservation: Reservation,
  tx: Tx,
  used: { costMicros: number; tokens: number },
): Promise<void> {
  if (reservation.local) {
    // The database never held it: only what was used goes there.
    // (The memory's holds are given back once this commits: `settled`.)
    for (const hold of reservation.holds) await s.budgetsStore.settleHold(tx, hold, used, false);
    return;
  }
  const taken = await s.budgetsStore.takeReservation(tx, reservation.id);
  for (const hold of reservation.holds) await s.budgetsStore.settleHold(tx, hold, used, taken !== undefined);
}

/** After a settle committed: a local reservation's holds leave this process's memory. */
export function settled(
  s: UsageState,
  reservation: Reservation,
  used: { costMicros: number; tokens: number },
) {
  if (reservation.local) closeLocally(s, reservation.holds, used);
}

/** Gives back the holds of a call that never reached the model. */
export async function release(s: UsageState, reservation: Reservation): Promise<void> {
  if (reservation.local) closeLocally(s, reservation.holds, { costMicros: 0, tokens: 0 });
  else await s.ctx.db.transaction((tx) => close(s, reservation, tx, { costMicros: 0, tokens: 0 }));
}

/** Releases the holds of calls whose process died before settling (the `usage.reservations` job). */
export async function sweepReservations(s: UsageState, now = new Date()): Promise<number> {
  let released = 0;
  for (const id of await s.budgetsStore.expiredReservations(now, 500)) {
    await s.ctx.db.transaction(async (tx) => {
      const holds = await s.budgetsStore.takeReservation(tx, id);
      for (const hold of holds ?? []) {
        await s.budgetsStore.settleHold(tx, hold, { costMicros: 0, tokens: 0 }, true);
      }
      if (holds) released++;
    });
  }
  return released;
}
