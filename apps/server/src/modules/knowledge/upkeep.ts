import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** The full-text index of the chunks (schema/knowledge.ts). */
const SEARCH_INDEX = 'knowledge_chunks_search_vector_idx';

/**
 * After chunks were written. GIN keeps new entries in a pending list that every keyword query reads
 * whole until it is merged into the index (by VACUUM, or once it passes gin_pending_list_limit,
 * 4 MB): a full list added ≈ 4 ms to each question over 100,000 chunks on PGlite, which has no
 * autovacuum to merge it, and PostgreSQL's waits for a fifth of the table to change. With
 * `statistics`, on PGlite, ANALYZE too (autovacuum's other half), renewing the words retrieval counts
 * as common (retrieval.ts): seconds over 100,000 chunks, so after a sync, not after each upload.
 */
export async function tidyChunks(
  db: Db,
  kind: 'pglite' | 'postgres',
  opts: { statistics: boolean },
): Promise<void> {
  await db.execute(sql`select gin_clean_pending_list(${SEARCH_INDEX}::regclass)`);
  if (opts.statistics && kind === 'pglite') await db.execute(sql`analyze knowledge_chunks`);
}
