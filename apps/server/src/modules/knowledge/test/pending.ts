import { sql } from 'drizzle-orm';
import { rowsOf } from '../../../db/client.ts';
import type { TestApp } from '../../../test/app.ts';

/**
 * Pages of full-text entries written but still in GIN's pending list (see upkeep.ts): merging them
 * answers how many there were.
 */
export async function pendingSearchPages(t: TestApp): Promise<number> {
  const [row] = rowsOf<{ pages: number }>(
    await t.ctx.db.execute(
      sql`select gin_clean_pending_list('knowledge_chunks_search_vector_idx'::regclass)::int as pages`,
    ),
  );
  return Number(row?.pages);
}
