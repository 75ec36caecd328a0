import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { FOLD_FROM, FOLD_TO, knowledgeChunks, knowledgeDocuments } from '../../db/schema/index.ts';
import { HNSW_MAX_DIMS, hasVectors } from '../../db/vectors.ts';

/** One retrieved chunk, with what a citation needs. */
export interface Hit {
  chunkId: string;
  documentId: string;
  sourceId: string;
  title: string;
  url: string;
  heading: string;
  text: string;
  /** Reciprocal-rank-fusion score (higher is better). */
  score: number;
}

/** A query's embedding and the model that made it. */
export interface QueryEmbedding {
  vector: number[];
  model: string;
}

export interface RetrieveOptions {
  /** Chunks answered. */
  limit: number;
  /**
   * The query's embedding; without it, keyword search alone. A promise lets the keyword half run
   * while the query is still being embedded.
   */
  embedding?: QueryEmbedding | Promise<QueryEmbedding | undefined>;
  /** Candidates each half contributes before fusion. */
  candidates?: number;
  /**
   * How the nearest chunks are found: pgvector (HNSW, exact when it finds too few) where the
   * database has it, else an exact scan of `real[]`. Tests force `array` to compare the two.
   */
  vectorScan?: 'index' | 'array';
}

/** The constant of reciprocal rank fusion: large enough that a first place does not drown the rest. */
const RRF_K = 60;

const fold = (s: string) => {
  let out = '';
  for (const ch of s) {
    const i = FOLD_FROM.indexOf(ch);
    out += i >= 0 ? (FOLD_TO[i] ?? ch) : ch;
  }
  return out;
};

/**
 * The words of a question as an OR tsquery (`word | word`): a question's words rarely all appear in
 * one passage, and ts_rank still prefers passages with more of them. Words in `common` (see
 * commonTerms) are left out unless nothing else is left: ranking every passage that has "the" or
 * "how" cost most of the keyword half's time and told little. Only letters and digits reach the
 * query, so no input can break its syntax.
 */
export function keywordQuery(text: string, common?: ReadonlySet<string>): string | undefined {
  const words = fold(text.normalize('NFC'))
    .toLowerCase()
    .match(/[\p{L}\p{N}]{2,}/gu);
  if (!words) return undefined;
  const unique = [...new Set(words)].slice(0, 32);
  const telling = common ? unique.filter((w) => !common.has(w)) : unique;
  return (telling.length > 0 ? telling : unique).join(' | ');
}

/** Passages with one of a question's words that are ranked at most (the first found). */
const ANY_ROWS = 250;
/** Passages with two or more of its words that are ranked at most (more is rare: see wordPairs). */
const PAIRED_ROWS = 1000;
/** The first words of a question that are paired: 8 make 28 pairs. */
const PAIRED_WORDS = 8;

/**
 * The tsquery of passages with two or more of the words of `tsquery` (an OR query of keywordQuery):
 * `(a & b) | (a & c) | (b & c)`, over its first PAIRED_WORDS; undefined for a single word.
 */
export function wordPairs(tsquery: string): string | undefined {
  const words = tsquery.split(' | ').slice(0, PAIRED_WORDS);
  const pairs = words.flatMap((a, i) => words.slice(i + 1).map((b) => `(${a} & ${b})`));
  return pairs.length > 0 ? pairs.join(' | ') : undefined;
}

/** A word in more than this share of all chunks is common (statistics of the `search` column). */
const COMMON_SHARE = 0.02;
/** Below this many chunks, every word of the few there looks common: no word is left out. */
const COMMON_MIN_CHUNKS = 10_000;
const COMMON_TTL_MS = 5 * 60_000;
const commonCache = new WeakMap<object, { at: number; terms: Promise<Set<string>> }>();

/**
 * The words found in more than COMMON_SHARE of the chunks, from the statistics ANALYZE keeps of the
 * full-text column (what the planner reads; refreshed by autovacuum on PostgreSQL, after each sync
 * on PGlite). Remembered for a few minutes per database handle.
 */
export function commonTerms(db: Db | Tx): Promise<Set<string>> {
  const cached = commonCache.get(db);
  if (cached && Date.now() - cached.at < COMMON_TTL_MS) return cached.terms;
  const terms = db
    .execute(
      sql`select s.most_common_elems::text::text[] as elems, s.most_common_elem_freqs as freqs,
          c.reltuples as chunks
        from pg_stats s join pg_class c on c.oid = 'knowledge_chunks'::regclass
        where s.tablename = 'knowledge_chunks' and s.attname = 'search' and s.schemaname = current_schema()`,
    )
    .then((r) => {
      const [row] = rowsOf<{ elems: string[] | null; freqs: number[] | null; chunks: number }>(r);
      if (!row?.elems || !row.freqs || Number(row.chunks) < COMMON_MIN_CHUNKS) return new Set<string>();
      // The frequencies list one per element (then minimum, maximum and null share).
      return new Set(row.elems.filter((_, i) => Number(row.freqs?.[i] ?? 0) > COMMON_SHARE));
    });
  commonCache.set(db, { at: Date.now(), terms });
  terms.catch(() => commonCache.delete(db));
  return terms;
}

const arrayLiteral = (v: readonly number[]) => `{${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}}`;

type Row = Omit<Hit, 'score'>;

/** pgvector's mirror of `embedding` (db/vectors.ts), outside the Drizzle schema. */
const EMBEDDING_VECTOR = sql`${knowledgeChunks}."embedding_vector"`;

const vectorLiteral = (v: readonly number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;

/**
 * The `candidates` best chunks by `rank` (ties by id), then their documents' titles and links:
 * joined after the limit, so a query that ranks thousands of chunks joins only the few kept (joining
 * first hashed every document of the domain on each question). Sorted again once joined, which also
 * restores the order HNSW's relaxed iterative scans do not keep.
 */
async function best(
  db: Db | Tx,
  where: SQL | undefined,
  rank: SQL,
  direction: 'asc' | 'desc',
  candidates: number,
): Promise<Row[]> {
  const order = (r: SQL | SQL.Aliased) => (direction === 'desc' ? desc(r) : r);
  // Ordered by the output column, not the expression written again: PostgreSQL then evaluates it
  // once per row, and a query vector is parsed once (float parsing is slow in PGlite's WebAssembly).
  // HNSW still serves `order by rank`, which names the same target expression.
  const c = db
    .select({
      chunkId: knowledgeChunks.id,
      documentId: knowledgeChunks.documentId,
      sourceId: knowledgeChunks.sourceId,
      heading: knowledgeChunks.heading,
      text: knowledgeChunks.text,
      rank: sql<number>`${rank}`.as('rank'),
    })
    .from(knowledgeChunks)
    .where(where)
    .orderBy(order(sql`"rank"`), knowledgeChunks.id)
    .limit(candidates)
    .as('c');
  return db
    .select({
      chunkId: c.chunkId,
      documentId: c.documentId,
      sourceId: c.sourceId,
      title: knowledgeDocuments.title,
      url: knowledgeDocuments.url,
      heading: c.heading,
      text: c.text,
    })
    .from(c)
    .innerJoin(knowledgeDocuments, eq(knowledgeDocuments.id, c.documentId))
    .orderBy(order(c.rank), c.chunkId);
}

/**
 * Hybrid retrieval over a domain's chosen sources: the nearest chunks by cosine similarity (unit
 * vectors: pgvector's HNSW index where the database has it, an exact scan of `real[]` otherwise,
 * giving the same answers) and the best by full-text rank, fused by reciprocal rank. Everything is
 * filtered by domain and source.
 */
export async function retrieve(
  db: Db | Tx,
  domainId: string,
  sourceIds: readonly string[],
  query: string,
  opts: RetrieveOptions,
): Promise<Hit[]> {
  if (sourceIds.length === 0) return [];
  const candidates = opts.candidates ?? Math.max(20, opts.limit * 4);
  const scope: SQL | undefined = and(
    eq(knowledgeChunks.domainId, domainId),
    inArray(knowledgeChunks.sourceId, [...sourceIds]),
  );

  const keyword: Promise<Row[]> = (async () => {
    if (!keywordQuery(query)) return [];
    const tsquery = keywordQuery(query, await commonTerms(db)) as string;
    const q = sql`to_tsquery('simple', ${tsquery})`;
    const vector = knowledgeChunks.search;
    const rank = sql`ts_rank(${vector}, ${q})`;
    const found = (match: SQL, rows: number) =>
      db
        .select({ id: knowledgeChunks.id, rank: sql<number>`${rank}`.as('rank') })
        .from(knowledgeChunks)
        .where(and(scope, match))
        .limit(rows);
    // Ranking reads every matching row, thousands for words in 1–2 % of the chunks (a third of a
    // question's time on PGlite), while a passage with two of the words always outranks one with
    // a single word (ts_rank adds at most 0.1 per word and at least 0.06). So what is ranked is
    // every passage with two or more words, and only the first ANY_ROWS with one: ranked as they
    // are read, and only the best `candidates` read again for their text.
    const sets = [found(sql`${vector} @@ ${q}`, ANY_ROWS)];
    const pairs = wordPairs(tsquery);
    if (pairs) sets.push(found(sql`${vector} @@ to_tsquery('simple', ${pairs})`, PAIRED_ROWS));
    const union = sql.join(
      sets.map((s) => sql`(${s})`),
      sql` union `,
    );
    const ids = sql`array(select id from (${union}) u order by rank desc, id limit ${candidates})`;
    return best(db, and(scope, sql`${knowledgeChunks.id} = any(${ids})`), rank, 'desc', candidates);
  })();

  const semantic: Promise<Row[]> = Promise.resolve(opts.embedding).then(async (embedding) => {
    if (!embedding) return [];
    const dims = embedding.vector.length;
    const where = and(
      scope,
      eq(knowledgeChunks.embeddingModel, embedding.model),
      sql`cardinality(${knowledgeChunks.embedding}) = ${dims}`,
    );
    const scan = opts.vectorScan ?? ((await hasVectors(db)) ? 'index' : 'array');
    if (scan === 'array') {
      const q = sql`${arrayLiteral(embedding.vector)}::real[]`;
      const similarity = sql`(select sum(a * b) from unnest(${knowledgeChunks.embedding}, ${q}) as v(a, b))`;
      return best(db, where, similarity, 'desc', candidates);
    }
    // pgvector: `<#>` is the negated inner product, the cosine distance's order on unit vectors.
    const q = vectorLiteral(embedding.vector);
    const n = sql.raw(String(dims));
    if (dims <= HNSW_MAX_DIMS) {
      // Written as the index is (cast to the dimension count, same predicate), so HNSW serves it.
      const near = sql`(${EMBEDDING_VECTOR}::vector(${n}) <#> ${q}::vector(${n}))`;
      const rows = await best(
        db,
        and(where, sql`vector_dims(${EMBEDDING_VECTOR}) = ${n}`),
        near,
        'asc',
        candidates,
      );
      // A full list is the nearest (iterative scans relax the order: sorted again, ties by id);
      // a short one may be the index's approximation, or filters that left too few: scan exactly.
      if (rows.length >= candidates) return rows;
    }
    return best(db, where, sql`(${EMBEDDING_VECTOR} <#> ${q}::vector)`, 'asc', candidates);
  });

  const [byKeyword, byMeaning] = await Promise.all([keyword, semantic]);
  return fuse([byMeaning, byKeyword], opts.limit);
}

/** Reciprocal rank fusion of ranked lists of chunks: Σ 1 / (k + rank) per chunk. */
function fuse(lists: Row[][], limit: number): Hit[] {
  const scored = new Map<string, Hit>();
  for (const list of lists) {
    list.forEach((row, rank) => {
      const hit = scored.get(row.chunkId) ?? { ...row, score: 0 };
      hit.score += 1 / (RRF_K + rank + 1);
      scored.set(row.chunkId, hit);
    });
  }
  return [...scored.values()]
    .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId))
    .slice(0, limit);
}
