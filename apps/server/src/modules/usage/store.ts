import { asc, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { modelPrices, usageDaily, usageEvents } from '../../db/schema/usage.ts';

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
  };
}

export type UsageStore = ReturnType<typeof usageStore>;
