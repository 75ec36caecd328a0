import { and, eq, gt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dataExports } from '../../db/schema/index.ts';

export type ExportRow = typeof dataExports.$inferSelect;

/** SQL over `data_exports` (docs/ARCHITECTURE.md#export-and-erasure): who asked for what, until when. */
export function exportsStore(db: Db) {
  return {
    async insert(row: typeof dataExports.$inferInsert): Promise<ExportRow> {
      const [inserted] = await db.insert(dataExports).values(row).returning();
      if (!inserted) throw new Error('insert returned nothing');
      return inserted;
    },

    /** The export `id` while `requestedBy` may download it: theirs, not expired at `now`. */
    async findLive(id: string, requestedBy: string, now: Date): Promise<ExportRow | undefined> {
      const [row] = await db
        .select()
        .from(dataExports)
        .where(
          and(
            eq(dataExports.id, id),
            eq(dataExports.requestedBy, requestedBy),
            gt(dataExports.expiresAt, now),
          ),
        )
        .limit(1);
      return row;
    },

    /** Forgets the exports a person asked for or that were of them (their erasure). */
    async deleteOf(userId: string): Promise<number> {
      const gone = await db
        .delete(dataExports)
        .where(
          or(
            eq(dataExports.requestedBy, userId),
            and(
              eq(dataExports.subjectId, userId),
              or(eq(dataExports.scope, 'me'), eq(dataExports.scope, 'user')),
            ),
          ),
        )
        .returning({ id: dataExports.id });
      return gone.length;
    },
  };
}

export type ExportsStore = ReturnType<typeof exportsStore>;
