import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { budgetPeriods, budgetReservations, budgets, usageDaily } from '../../db/schema/usage.ts';

export type BudgetRow = typeof budgets.$inferSelect;
export type BudgetInsert = typeof budgets.$inferInsert;
export type BudgetPeriodRow = typeof budgetPeriods.$inferSelect;

/** What one call holds of one budget's period until it settles. */
export interface Hold {
  budgetId: string;
  /** ISO instant: the period the hold was taken in (it settles there, even past its end). */
  periodStart: string;
  costMicros: number;
  tokens: number;
}

/** A budget's period as admission needs it: its limits, and the days its roll-up seed covers. */
export interface PeriodKey {
  budget: BudgetRow;
  start: Date;
  /** First and last+1 day (YYYY-MM-DD in the domain's zone) of the period. */
  fromDay: string;
  toDay: string;
}

/** SQL over budgets and their periods (docs/ARCHITECTURE.md#usage-prices-and-budgets). */
export function budgetsStore(db: Db) {
  return {
    async forDomain(domainId: string): Promise<BudgetRow[]> {
      return db
        .select()
        .from(budgets)
        .where(eq(budgets.domainId, domainId))
        .orderBy(asc(budgets.scopeKind), asc(budgets.scopeId), asc(budgets.period));
    },

    async find(id: string): Promise<BudgetRow | undefined> {
      const [row] = await db.select().from(budgets).where(eq(budgets.id, id)).limit(1);
      return row;
    },

    async insert(tx: Tx, row: BudgetInsert): Promise<BudgetRow | undefined> {
      const [made] = await tx.insert(budgets).values(row).onConflictDoNothing().returning();
      return made;
    },

    async update(tx: Tx, id: string, patch: Partial<BudgetInsert>): Promise<BudgetRow | undefined> {
      const [row] = await tx.update(budgets).set(patch).where(eq(budgets.id, id)).returning();
      return row;
    },

    async remove(tx: Tx, id: string): Promise<void> {
      await tx.delete(budgets).where(eq(budgets.id, id));
    },

    /** The period rows of `keys` that exist (a period with no call yet has none). */
    async periods(keys: readonly { budgetId: string; start: Date }[]): Promise<BudgetPeriodRow[]> {
      if (keys.length === 0) return [];
      const rows = await db
        .select()
        .from(budgetPeriods)
        .where(
          inArray(
            budgetPeriods.budgetId,
            keys.map((k) => k.budgetId),
          ),
        );
      const wanted = new Set(keys.map((k) => `${k.budgetId}@${k.start.getTime()}`));
      return rows.filter((r) => wanted.has(`${r.budgetId}@${r.periodStart.getTime()}`));
    },

    /**
     * Makes the period's row if it has none, seeded with what the ledger's roll-up already holds
     * for the budget's scope since the period began (a budget set mid-month counts the month).
     */
    async openPeriod(tx: Tx | Db, key: PeriodKey): Promise<void> {
      const { budget } = key;
      const scope =
        budget.scopeKind === 'department'
          ? sql`and ${usageDaily.departmentId} = ${budget.scopeId}`
          : budget.scopeKind === 'user'
            ? sql`and ${usageDaily.userId} = ${budget.scopeId}`
            : sql``;
      await tx.execute(sql`
        insert into ${budgetPeriods} (budget_id, period_start, used_cost_micros, used_tokens)
        select ${budget.id}, ${key.start.toISOString()}::timestamptz,
          coalesce(sum(${usageDaily.costMicros}), 0), coalesce(sum(${usageDaily.inputTokens} + ${usageDaily.outputTokens}), 0)
        from ${usageDaily}
        where ${usageDaily.domainId} = ${budget.domainId} and ${usageDaily.day} >= ${key.fromDay}::date
          and ${usageDaily.day} < ${key.toDay}::date ${scope}
        on conflict do nothing`);
    },

    /**
     * Takes `hold` on its period if used + reserved + the hold stays within the limits: one
     * conditional UPDATE, so concurrent callers on any replica serialise on the row. False: no room.
     */
    async hold(tx: Tx, budget: BudgetRow, hold: Hold): Promise<boolean> {
      const rows = await tx
        .update(budgetPeriods)
        .set({
          reservedCostMicros: sql`${budgetPeriods.reservedCostMicros} + ${hold.costMicros}`,
          reservedTokens: sql`${budgetPeriods.reservedTokens} + ${hold.tokens}`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(budgetPeriods.budgetId, budget.id),
            eq(budgetPeriods.periodStart, new Date(hold.periodStart)),
            budget.limitCostMicros === null
              ? undefined
              : sql`${budgetPeriods.usedCostMicros} + ${budgetPeriods.reservedCostMicros} + ${hold.costMicros} <= ${budget.limitCostMicros}`,
            budget.limitTokens === null
              ? undefined
              : sql`${budgetPeriods.usedTokens} + ${budgetPeriods.reservedTokens} + ${hold.tokens} <= ${budget.limitTokens}`,
          ),
        )
        .returning({ budgetId: budgetPeriods.budgetId });
      return rows.length > 0;
    },

    async saveReservation(tx: Tx, id: string, holds: Hold[], expiresAt: Date): Promise<void> {
      await tx.insert(budgetReservations).values({ id, holds, expiresAt });
    },

    /** Takes the reservation away; its holds, or undefined when a sweep released it already. */
    async takeReservation(tx: Tx, id: string): Promise<Hold[] | undefined> {
      const [row] = await tx
        .delete(budgetReservations)
        .where(eq(budgetReservations.id, id))
        .returning({ holds: budgetReservations.holds });
      return row?.holds;
    },

    /** Moves a call from reserved to used: what it held leaves, what it spent stays. */
    async settleHold(
      tx: Tx,
      hold: Hold,
      used: { costMicros: number; tokens: number },
      held: boolean,
    ): Promise<void> {
      await tx
        .update(budgetPeriods)
        .set({
          reservedCostMicros: held
            ? sql`greatest(${budgetPeriods.reservedCostMicros} - ${hold.costMicros}, 0)`
            : budgetPeriods.reservedCostMicros,
          reservedTokens: held
            ? sql`greatest(${budgetPeriods.reservedTokens} - ${hold.tokens}, 0)`
            : budgetPeriods.reservedTokens,
          usedCostMicros: sql`${budgetPeriods.usedCostMicros} + ${used.costMicros}`,
          usedTokens: sql`${budgetPeriods.usedTokens} + ${used.tokens}`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(budgetPeriods.budgetId, hold.budgetId),
            eq(budgetPeriods.periodStart, new Date(hold.periodStart)),
          ),
        );
    },

    /** Reservations whose process died before settling them (past their expiry), oldest first. */
    async expiredReservations(now: Date, limit: number): Promise<string[]> {
      const rows = await db
        .select({ id: budgetReservations.id })
        .from(budgetReservations)
        .where(lt(budgetReservations.expiresAt, now))
        .orderBy(asc(budgetReservations.expiresAt))
        .limit(limit);
      return rows.map((r) => r.id);
    },
  };
}

export type BudgetsStore = ReturnType<typeof budgetsStore>;
