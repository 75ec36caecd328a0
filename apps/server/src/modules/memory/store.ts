import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { memories, memorySettings } from '../../db/schema/index.ts';

export type MemoryRow = typeof memories.$inferSelect;

/**
 * SQL of a person's memories (docs/ARCHITECTURE.md#memory). Every function that reads or changes
 * memories takes the owner's user id and filters by it: a memory is never read for anyone else.
 */
export function memoryStore(db: Db | Tx) {
  const columns = {
    id: memories.id,
    userId: memories.userId,
    domainId: memories.domainId,
    text: memories.text,
    source: memories.source,
    createdAt: memories.createdAt,
    updatedAt: memories.updatedAt,
  };
  let ofUser: { execute(values: { userId: string }): Promise<MemoryRow[]> } | undefined;
  return {
    /** Whether the domain has memory on; no row is off. */
    async enabled(domainId: string): Promise<boolean> {
      const [row] = await db
        .select({ enabled: memorySettings.enabled })
        .from(memorySettings)
        .where(eq(memorySettings.domainId, domainId))
        .limit(1);
      return row?.enabled ?? false;
    },

    async setEnabled(domainId: string, enabled: boolean): Promise<void> {
      await db
        .insert(memorySettings)
        .values({ domainId, enabled })
        .onConflictDoUpdate({ target: memorySettings.domainId, set: { enabled, updatedAt: new Date() } });
    },

    /**
     * The owner's memories, newest first (at most MemoryLimits.perPerson): one indexed read, the
     * one an answer makes when its domain has memory on, so built once and prepared.
     */
    list(userId: string): Promise<MemoryRow[]> {
      ofUser ??= db
        .select(columns)
        .from(memories)
        .where(eq(memories.userId, sql.placeholder('userId')))
        .orderBy(desc(memories.createdAt), desc(memories.id))
        .prepare('memories_of_user');
      return ofUser.execute({ userId });
    },

    /**
     * Adds a memory unless the owner keeps `max` already: counted and inserted under a lock on the
     * owner, so two saves racing each other cannot pass the limit together. Undefined when full.
     */
    async insert(
      row: Pick<MemoryRow, 'userId' | 'domainId' | 'text' | 'source'>,
      max: number,
    ): Promise<MemoryRow | undefined> {
      const add = async (tx: Db | Tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`memories:${row.userId}`}))`);
        const [kept] = await tx.select({ n: count() }).from(memories).where(eq(memories.userId, row.userId));
        if ((kept?.n ?? 0) >= max) return undefined;
        const now = new Date();
        const [stored] = await tx
          .insert(memories)
          .values({ id: randomUUID(), ...row, createdAt: now, updatedAt: now })
          .returning(columns);
        return stored;
      };
      return db.transaction(add);
    },

    /** Changes the owner's memory's text; undefined when they have no such memory. */
    async update(userId: string, id: string, text: string): Promise<MemoryRow | undefined> {
      const [row] = await db
        .update(memories)
        .set({ text, updatedAt: new Date() })
        .where(and(eq(memories.id, id), eq(memories.userId, userId)))
        .returning(columns);
      return row;
    },

    /** Deletes the owner's memory; false when they have no such memory. */
    async remove(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(memories)
        .where(and(eq(memories.id, id), eq(memories.userId, userId)))
        .returning({ id: memories.id });
      return rows.length > 0;
    },
  };
}

export type MemoryStore = ReturnType<typeof memoryStore>;
