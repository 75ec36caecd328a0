import { and, count, desc, eq, inArray, lt, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { apiKeys, apiUsage } from '../../db/schema/index.ts';
import { type KeyedPage, keyedPage } from '../../lib/paging.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiUsageInsert = typeof apiUsage.$inferInsert;

export const API_KEYS_CURSOR_TAG = 'api_keys:createdAt:desc';

/**
 * API keys' reads and writes. Lists take the scope the service decided (one user's keys, or one
 * domain's): nothing here reads a key without one, except the lookup by secret hash that
 * authenticates a request.
 */
export function apiKeysStore(db: Db | Tx) {
  return {
    async byHash(secretHash: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.secretHash, secretHash)).limit(1);
      return row;
    },

    async byId(id: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
      return row;
    },

    async countOfUser(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, userId));
      return row?.n ?? 0;
    },

    async insert(row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
      const [made] = await db.insert(apiKeys).values(row).returning();
      if (!made) throw new Error('inserting an API key returned nothing');
      return made;
    },

    async remove(id: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.delete(apiKeys).where(eq(apiKeys.id, id)).returning();
      return row;
    },

    /** Newest first, keyset-paged over (createdAt, id), within `scope`. */
    async list(
      scope: { userId: string } | { domainId: string },
      q: { limit: number; after?: [string, string] },
    ): Promise<KeyedPage<ApiKeyRow>> {
      const filter: SQL =
        'userId' in scope ? eq(apiKeys.userId, scope.userId) : eq(apiKeys.domainId, scope.domainId);
      const after = q.after
        ? or(
            lt(apiKeys.createdAt, sql`${q.after[0]}::timestamptz`),
            and(eq(apiKeys.createdAt, sql`${q.after[0]}::timestamptz`), lt(apiKeys.id, q.after[1])),
          )
        : undefined;
      const [rows, totals] = await Promise.all([
        db
          .select({ row: apiKeys, key: sql<string>`${apiKeys.createdAt}::text` })
          .from(apiKeys)
          .where(and(filter, after))
          .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
          .limit(q.limit + 1),
        db.select({ n: count() }).from(apiKeys).where(filter),
      ]);
      return keyedPage(
        rows,
        q.limit,
        totals[0]?.n ?? 0,
        (r) => [r.key, r.row.id],
        (r) => r.row,
      );
    },

    async touch(id: string, at: Date): Promise<void> {
      await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
    },

    async recordUsage(row: ApiUsageInsert): Promise<void> {
      await db.insert(apiUsage).values(row);
    },

    /** Deletes up to `limit` of the domain's request log rows made before `before`, not of `keep`. */
    async deleteRequestLog(
      domainId: string,
      before: Date,
      keep: readonly string[],
      limit: number,
    ): Promise<number> {
      const gone = await db
        .delete(apiUsage)
        .where(
          inArray(
            apiUsage.id,
            db
              .select({ id: apiUsage.id })
              .from(apiUsage)
              .where(
                and(
                  eq(apiUsage.domainId, domainId),
                  lt(apiUsage.createdAt, before),
                  keep.length > 0 ? notInArray(apiUsage.userId, [...keep]) : undefined,
                ),
              )
              .limit(limit),
          ),
        )
        .returning({ id: apiUsage.id });
      return gone.length;
    },
  };
}

export type ApiKeysStore = ReturnType<typeof apiKeysStore>;
