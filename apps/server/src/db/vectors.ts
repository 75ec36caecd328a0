import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { rowsOf } from './client.ts';

/**
 * pgvector beside the knowledge chunks' `real[]` embeddings (docs/ARCHITECTURE.md#knowledge): where the server has the
 * extension (always on the embedded database, through @electric-sql/pglite-pgvector), a generated
 * `embedding_vector` column mirrors `embedding` and an HNSW index per dimension count serves the
 * nearest-neighbour half of retrieval. Where it does not (the test machines' PostgreSQL), nothing
 * changes: retrieval scans `real[]` exactly. Not a migration, since the same migrations run on both.
 * Runs under the migration lock; answers whether the column is there.
 */
export async function setUpVectors(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`create extension if not exists vector`);
  } catch (err) {
    // PGlite lists a bundled extension only once created, so trying is the test. Worth a warning
    // only when the server has pgvector but this role may not enable it.
    const [listed] = rowsOf<{ available: boolean }>(
      await db.execute(
        sql`select exists (select 1 from pg_available_extensions where name = 'vector') as available`,
      ),
    );
    if (listed?.available) {
      process.emitWarning(`pgvector is installed but could not be enabled: ${(err as Error).message}`);
    }
    return false;
  }
  await db.execute(sql`alter table knowledge_chunks add column if not exists embedding_vector vector
    generated always as (case when cardinality(embedding) > 0 then embedding::vector end) stored`);
  // No statistics of the vectors: no query filters on them, and ANALYZE spent seconds on them
  // (as on the `real[]` column, migration 0030).
  await db.execute(sql`alter table knowledge_chunks alter column embedding_vector set statistics 0`);
  return true;
}

const support = new WeakMap<object, Promise<boolean>>();

/** Whether the database has the `embedding_vector` column (remembered per database handle). */
export function hasVectors(db: Db | Tx): Promise<boolean> {
  let known = support.get(db);
  if (!known) {
    known = db
      .execute(
        sql`select exists (select 1 from information_schema.columns
          where table_name = 'knowledge_chunks' and column_name = 'embedding_vector') as present`,
      )
      .then((r) => Boolean(rowsOf<{ present: boolean }>(r)[0]?.present));
    support.set(db, known);
    known.catch(() => support.delete(db));
  }
  return known;
}

/** pgvector's HNSW indexes take at most 2,000 dimensions; larger embeddings are scanned exactly. */
export const HNSW_MAX_DIMS = 2000;

/**
 * Small graph settings: building the index over 100,000 chunks of 256 dimensions took ≈ 3.5× less
 * time than with the defaults (16, 64) on PGlite, and every chunk written pays that cost too.
 */
const HNSW_WITH = sql.raw('m = 8, ef_construction = 32');

const indexed = new WeakMap<object, Map<number, Promise<void>>>();

/** Builds the HNSW index of `dims`-dimension embeddings unless it exists. */
export async function buildVectorIndex(db: Db, dims: number): Promise<void> {
  const n = sql.raw(String(dims));
  await db.execute(
    sql`create index if not exists ${sql.identifier(vectorIndexName(dims))}
      on knowledge_chunks using hnsw ((embedding_vector::vector(${n})) vector_ip_ops) with (${HNSW_WITH})
      where vector_dims(embedding_vector) = ${n}`,
  );
}

export const vectorIndexName = (dims: number) => `knowledge_chunks_embedding_${dims}_idx`;

/** The HNSW index of `dims`-dimension embeddings, created the first time a process needs it. */
export function ensureVectorIndex(db: Db, dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims < 1 || dims > HNSW_MAX_DIMS) return Promise.resolve();
  let byDims = indexed.get(db);
  if (!byDims) {
    byDims = new Map();
    indexed.set(db, byDims);
  }
  let done = byDims.get(dims);
  if (!done) {
    done = buildVectorIndex(db, dims);
    byDims.set(dims, done);
    done.catch(() => byDims?.delete(dims));
  }
  return done;
}
