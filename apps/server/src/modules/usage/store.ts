import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { budgets, modelPrices, usageDaily, usageEvents } from '../../db/schema/usage.ts';

export type UsageEventInsert = typeof usageEvents.$inferInsert;

/** SQL over the usage module's tables (docs/ARCHITECTURE.md#usage-prices-and-budgets). */
export function usageStore(db: Db) {
  return {
    async allPrices() {
      return db.select().from(modelPrices).orderBy(asc(modelPrices.model), asc(modelPrices.effectiveFrom));
    },

    /** Adds one settled call and folds it into its day's roll-up, in `tx` (the settling transaction). */
    async addEvent(tx: Tx | Db, event: UsageEventInsert & { at: Date }, day: string): Promise<void> {
      await tx.insert(usageEvents).values(event);
      const priced = event.costMicros !== null && event.costMicros !== undefined;
      await tx
        .insert(usageDaily)
        .values({
          day,
          domainId: event.domainId,
          departmentId: event.departmentId ?? '',
          userId: event.userId ?? '',
          santitoId: event.santitoId ?? '',
          source: event.source,
          model: event.model,
          calls: 1,
          inputTokens: event.inputTokens ?? 0,
          outputTokens: event.outputTokens ?? 0,
          costMicros: event.costMicros ?? 0,
          unpricedCalls: priced ? 0 : 1,
        })
        .onConflictDoUpdate({
          target: [
            usageDaily.domainId,
            usageDaily.day,
            usageDaily.departmentId,
            usageDaily.userId,
            usageDaily.santitoId,
            usageDaily.source,
            usageDaily.model,
          ],
          set: {
            calls: sql`${usageDaily.calls} + 1`,
            inputTokens: sql`${usageDaily.inputTokens} + excluded.input_tokens`,
            outputTokens: sql`${usageDaily.outputTokens} + excluded.output_tokens`,
            costMicros: sql`${usageDaily.costMicros} + excluded.cost_micros`,
            unpricedCalls: sql`${usageDaily.unpricedCalls} + excluded.unpriced_calls`,
          },
        });
    },

    /**
     * Rewrites a person's ledger keys to `alias` (events and day roll-ups, a roll-up merged into one
     * the alias already has) and drops their own budgets, in one transaction: totals stay whole.
     */
    async pseudonymise(userId: string, alias: string): Promise<{ events: number; days: number }> {
      return db.transaction(async (tx) => {
        const events = await tx
          .update(usageEvents)
          .set({ userId: alias })
          .where(eq(usageEvents.userId, userId))
          .returning({ id: usageEvents.id });
        await tx.execute(sql`
          insert into ${usageDaily} (day, domain_id, department_id, user_id, santito_id, source, model,
            calls, input_tokens, output_tokens, cost_micros, unpriced_calls)
          select day, domain_id, department_id, ${alias}, santito_id, source, model,
            calls, input_tokens, output_tokens, cost_micros, unpriced_calls
            from ${usageDaily} where user_id = ${userId}
          on conflict (domain_id, day, department_id, user_id, santito_id, source, model) do update set
            calls = ${usageDaily.calls} + excluded.calls,
            input_tokens = ${usageDaily.inputTokens} + excluded.input_tokens,
            output_tokens = ${usageDaily.outputTokens} + excluded.output_tokens,
            cost_micros = ${usageDaily.costMicros} + excluded.cost_micros,
            unpriced_calls = ${usageDaily.unpricedCalls} + excluded.unpriced_calls`);
        const gone = await tx
          .delete(usageDaily)
          .where(eq(usageDaily.userId, userId))
          .returning({ day: usageDaily.day });
        await tx.delete(budgets).where(and(eq(budgets.scopeKind, 'user'), eq(budgets.scopeId, userId)));
        return { events: events.length, days: gone.length };
      });
    },
  };
}

export type UsageStore = ReturnType<typeof usageStore>;
