import type { UsageGroupBy } from '@assistente/contracts';
import { and, asc, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { modelPrices, usageDaily } from '../../db/schema/usage.ts';

/** One group's sums over a range of days. */
export interface GroupSums {
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  unpricedCalls: number;
}

const GROUP_COLUMN: Record<UsageGroupBy, SQL> = {
  day: sql`${usageDaily.day}`,
  user: sql`${usageDaily.userId}`,
  department: sql`${usageDaily.departmentId}`,
  model: sql`${usageDaily.model}`,
  santito: sql`${usageDaily.santitoId}`,
  source: sql`${usageDaily.source}`,
};

// `sum(bigint)` is a numeric, read as text and turned into a number (exact: micros stay below
// 2^53). Measured on the embedded database, it beats summing casts to doubles or integers.
const total = (column: SQL) => sql<string>`coalesce(sum(${column}), 0)`;

/** SQL of the usage reports: the day roll-ups only, never the events (docs/ARCHITECTURE.md#usage-prices-and-budgets). */
export function reportsStore(db: Db) {
  return {
    /** Sums of `domainId`'s days `from`–`to` (both included) by `groupBy`; of one user when `userId` is set. */
    async sums(q: {
      domainId: string;
      from: string;
      to: string;
      groupBy: UsageGroupBy;
      userId?: string;
    }): Promise<GroupSums[]> {
      const key = GROUP_COLUMN[q.groupBy];
      const cost = total(sql`${usageDaily.costMicros}`);
      const rows = await db
        .select({
          key: sql<string>`${key}::text`,
          calls: total(sql`${usageDaily.calls}`),
          inputTokens: total(sql`${usageDaily.inputTokens}`),
          outputTokens: total(sql`${usageDaily.outputTokens}`),
          costMicros: cost,
          unpricedCalls: total(sql`${usageDaily.unpricedCalls}`),
        })
        .from(usageDaily)
        .where(
          and(
            eq(usageDaily.domainId, q.domainId),
            gte(usageDaily.day, q.from),
            lte(usageDaily.day, q.to),
            q.userId !== undefined ? eq(usageDaily.userId, q.userId) : undefined,
          ),
        )
        .groupBy(key)
        .orderBy(
          ...(q.groupBy === 'day'
            ? [asc(key)]
            : [desc(sql`sum(${usageDaily.costMicros})`), desc(sql`sum(${usageDaily.calls})`), asc(key)]),
        );
      return rows.map((r) => ({
        key: r.key,
        calls: Number(r.calls),
        inputTokens: Number(r.inputTokens),
        outputTokens: Number(r.outputTokens),
        costMicros: Number(r.costMicros),
        unpricedCalls: Number(r.unpricedCalls),
      }));
    },

    /** Every price row of `model`, newest first. */
    async priceHistory(model: string) {
      return db
        .select()
        .from(modelPrices)
        .where(eq(modelPrices.model, model))
        .orderBy(desc(modelPrices.effectiveFrom), desc(modelPrices.id));
    },

    async addPrice(tx: Tx | Db, row: typeof modelPrices.$inferInsert) {
      const [added] = await tx.insert(modelPrices).values(row).returning();
      return added as typeof modelPrices.$inferSelect;
    },
  };
}

export type ReportsStore = ReturnType<typeof reportsStore>;
