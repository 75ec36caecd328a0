import { sql } from 'drizzle-orm';
import { rowsOf } from '../apps/server/src/db/client.ts';
import { knowledgeDocuments } from '../apps/server/src/db/schema/index.ts';
import { buildVectorIndex, hasVectors, vectorIndexName } from '../apps/server/src/db/vectors.ts';
import { retrieve } from '../apps/server/src/modules/knowledge/retrieval.ts';
import { tidyChunks } from '../apps/server/src/modules/knowledge/upkeep.ts';
import { resolveCaller } from '../apps/server/src/plugins/auth.ts';
import { BENCH_DOMAIN, startBenchApp } from './bench-app.ts';

const fixturePort = Number(process.env.FIXTURE_PORT);
const confluencePort = Number(process.env.CONFLUENCE_PORT);

const bench = await startBenchApp('knowledge', {
  AGENT_SENDS_PER_MINUTE: '100000',
  PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fixturePort},127.0.0.1:${confluencePort}`,
});
const { ctx, port } = bench;
const domainId = BENCH_DOMAIN;
const idToken = await bench.user('admin@bench.test', 'Admin', 'Admin');
const admin = await resolveCaller(ctx, idToken);
const provider = await ctx.services.providers.create(
  admin,
  { kind: 'openai-compatible', label: 'Fixture', baseUrl: `http://127.0.0.1:${fixturePort}/v1` },
  { ip: null, userAgent: 'bench' },
);
const embedding = await ctx.services.providers.embeddingModel(domainId);
if (!embedding) throw new Error('the fixture offers no embedding model');

/** A vocabulary with a long tail: chunk texts and questions draw from it, common words more often. */
const VOCABULARY = Array.from({ length: 4000 }, (_, i) => `w${i.toString(36)}x`);

/** `n` words of the vocabulary, common ones more often (as in the chunks). */
const pickWords = (n: number) =>
  Array.from(
    { length: n },
    () => VOCABULARY[Math.floor(Math.random() * Math.random() * VOCABULARY.length)] as string,
  );

const randomUnit = (dims: number): number[] => {
  const v = Array.from({ length: dims }, () => Math.random() * 2 - 1);
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};

/**
 * `count` synthetic chunks of `sourceId`, in documents of 20 chunks, inserted by the database itself
 * (generate_series): each row's text is 80 words of the vocabulary, skewed so that some words are
 * common, and its embedding a random unit vector of `dims` — made once for a pool of POOL rows and
 * reused, so 100,000 chunks take seconds (a plain table: a temporary one would belong to one of the pool's
 * connections). A scan reads every row alike, so reuse does not flatter it.
 */
const POOL = 5000;
async function seed(
  sourceId: string,
  count: number,
  dims: number,
  model: string,
): Promise<{ insertMs: number; ms: number; vectors: boolean }> {
  const t0 = performance.now();
  let inserted = 0;
  const docs = Math.ceil(count / 20);
  for (let d = 0; d < docs; d += 1000) {
    await ctx.db.insert(knowledgeDocuments).values(
      Array.from({ length: Math.min(1000, docs - d) }, (_, i) => ({
        id: `kbd${d + i}`,
        domainId,
        sourceId,
        title: `Synthetic document ${d + i}`,
        url: `https://docs.bench.test/${d + i}`,
        status: 'ready' as const,
        chunks: 20,
        contentType: 'text/plain',
        size: 0,
      })),
    );
  }
  const vocabulary = `{${VOCABULARY.join(',')}}`;
  await ctx.db.execute(sql`create unlogged table bench_pool as
    select p, (select string_agg(v[1 + floor(random() * random() * ${VOCABULARY.length})::int], ' ')
                 from generate_series(1, 80), (select ${vocabulary}::text[] as v) voc where p >= 0) as text,
      (select array_agg(x / n) from (select x, sqrt(sum(x * x) over ()) as n
         from (select (random() * 2 - 1)::real as x from generate_series(1, ${dims}) where p >= 0) r) u) as embedding
    from generate_series(0, ${POOL - 1}) p`);
  // With pgvector (HNSW), every chunk needs a vector of its own: the index keeps equal vectors as
  // one node, which would flatter it. Each is the sum of a pool vector and one of 20 others.
  const vectors = await hasVectors(ctx.db);
  const index = vectorIndexName(dims);
  if (vectors) await ctx.db.execute(sql`drop index if exists ${sql.identifier(index)}`);
  const embedding = vectors
    ? sql`l2_normalize(bench_pool.embedding::vector + spread.embedding::vector)::real[]`
    : sql`bench_pool.embedding`;
  for (let from = 0; from < count; from += 20_000) {
    const to = Math.min(count, from + 20_000) - 1;
    await ctx.db.execute(sql`
      insert into knowledge_chunks (id, domain_id, source_id, document_id, ord, heading, text, embedding, embedding_model)
      select 'kbc' || g, ${domainId}, ${sourceId}, 'kbd' || (g / 20), g % 20, 'Section ' || (g % 7),
        bench_pool.text, ${embedding}, ${model}
      from generate_series(${from}::int, ${to}::int) g
      join bench_pool on bench_pool.p = (g * 7919) % ${POOL}
      join bench_pool spread on spread.p = (g / ${POOL}) % 20`);
  }
  inserted = performance.now() - t0;
  // Built over the rows in bulk, as an upgrade would; within the embedded database's memory.
  if (vectors) {
    await ctx.db.execute(sql`set maintenance_work_mem = '256MB'`);
    await buildVectorIndex(ctx.db, dims);
  }
  await ctx.db.execute(sql`drop table bench_pool`);
  // The state a sync leaves (upkeep.ts), with PostgreSQL's autovacuum ANALYZE ahead of its time.
  await tidyChunks(ctx, { statistics: true });
  if (bench.databaseKind === 'postgres') await ctx.db.execute(sql`analyze knowledge_chunks`);
  return { insertMs: inserted, ms: performance.now() - t0, vectors };
}

/** Wall time of `samples` hybrid retrievals over `sourceIds` (random vectors, 4 vocabulary words). */
async function timeRetrieval(
  sourceIds: string[],
  samples: number,
  dims: number,
  model: string,
  budgetMs: number,
): Promise<{ ms: number[]; vectorMs: number[]; keywordMs: number[]; hits: number }> {
  const ms: number[] = [];
  const vectorMs: number[] = [];
  const keywordMs: number[] = [];
  let hits = 0;
  const started = performance.now();
  const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const t0 = performance.now();
    const out = await work();
    return [out, performance.now() - t0];
  };
  for (let i = 0; i < samples + 3 && performance.now() - started < budgetMs; i++) {
    const question = `what about ${pickWords(4).join(' ')}?`;
    const vector = randomUnit(dims);
    const [found, took] = await timed(() =>
      retrieve(ctx.db, domainId, sourceIds, question, { limit: 6, embedding: { vector, model } }),
    );
    // The first few warm caches up.
    if (i < 3) continue;
    ms.push(took);
    hits += found.length;
    // Each half alone, every third sample: where the time goes.
    if (i % 3 === 0) {
      vectorMs.push(
        (
          await timed(() =>
            retrieve(ctx.db, domainId, sourceIds, '?', { limit: 6, embedding: { vector, model } }),
          )
        )[1],
      );
      keywordMs.push((await timed(() => retrieve(ctx.db, domainId, sourceIds, question, { limit: 6 })))[1]);
    }
  }
  return { ms, vectorMs, keywordMs, hits };
}

process.stdout.write(
  `${JSON.stringify({
    port,
    idToken,
    domainId,
    providerId: provider.id,
    embeddingModel: embedding.modelId,
    database: bench.databaseKind,
    vocabulary: VOCABULARY,
  })}\n`,
);

type Command =
  | { id: number; cmd: 'seed'; sourceId: string; count: number; dims: number; model: string }
  | {
      id: number;
      cmd: 'retrieve';
      sourceIds: string[];
      samples: number;
      dims: number;
      model: string;
      budgetMs: number;
    }
  | { id: number; cmd: 'count'; sql: 'embedded' };

process.on('message', (m: Command) => {
  const work = async (): Promise<unknown> => {
    switch (m.cmd) {
      case 'seed':
        return seed(m.sourceId, m.count, m.dims, m.model);
      case 'retrieve':
        return timeRetrieval(m.sourceIds, m.samples, m.dims, m.model, m.budgetMs);
      case 'count': {
        const [row] = rowsOf<{ chunks: number; embedded: number }>(
          await ctx.db.execute(
            sql`select count(*)::int as chunks, count(*) filter (where embedding_model <> '')::int as embedded from knowledge_chunks where document_id not like 'kbd%'`,
          ),
        );
        return row;
      }
    }
  };
  work().then(
    (result) => process.send?.({ id: m.id, result }),
    (err: unknown) => process.send?.({ id: m.id, error: String((err as Error)?.stack ?? err) }),
  );
});
process.on('SIGTERM', async () => {
  // 100,000 chunks with their indexes are ≈ 1.4 GB on disk: closing removes them.
  await bench.close();
  process.exit(0);
});
