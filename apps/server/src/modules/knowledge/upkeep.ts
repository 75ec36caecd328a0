import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { rowsOf } from '../../db/client.ts';
import { KNOWLEDGE_SEARCH_INDEX } from '../../db/schema/index.ts';

/**
 * Merges GIN's pending list into the chunks' full-text index; answers how many pages it held. New
 * entries wait there, read whole by every keyword query, until VACUUM merges them or the list passes
 * gin_pending_list_limit (4 MB): a full list added ≈ 4 ms to each question over 100,000 chunks on
 * PGlite, which has no autovacuum, and PostgreSQL's waits for a fifth of the table to change.
 */
export async function mergePendingSearch(db: AppContext['db']): Promise<number> {
  const [row] = rowsOf<{ pages: number }>(
    await db.execute(sql`select gin_clean_pending_list(${KNOWLEDGE_SEARCH_INDEX}::regclass)::int as pages`),
  );
  return Number(row?.pages ?? 0);
}

/**
 * Upkeep after chunks were written: the pending list merged and, with `statistics` on PGlite,
 * ANALYZE (autovacuum's other half), renewing the words retrieval counts as common (retrieval.ts):
 * seconds over 100,000 chunks, so after a sync, not after each upload. Never throws: a database that
 * refuses it (a role that does not own the index) fails no sync or upload, and it is logged.
 */
export async function tidyChunks(
  ctx: Pick<AppContext, 'db' | 'dbKind' | 'log'>,
  opts: { statistics: boolean },
): Promise<void> {
  try {
    await mergePendingSearch(ctx.db);
    if (opts.statistics && ctx.dbKind === 'pglite') await ctx.db.execute(sql`analyze knowledge_chunks`);
  } catch (err) {
    ctx.log.warn({ err }, 'knowledge index not tidied');
  }
}
