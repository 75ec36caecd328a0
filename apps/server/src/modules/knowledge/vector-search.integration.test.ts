import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { ensureVectorIndex, hasVectors } from '../../db/vectors.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, type TestDomain } from '../../test/factories.ts';
import { normalise } from './embeddings.ts';
import { retrieve } from './retrieval.ts';
import { newDocumentId, newSourceId } from './service.ts';
import { knowledgeStore } from './store.ts';

const DIMS = 32;
const MODEL = 'p:embed-32';

/** A seeded generator (mulberry32): the same vectors on every run, so the comparison is stable. */
function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(12);
const unit = () => normalise(Array.from({ length: DIMS }, () => random() * 2 - 1));

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let big: string;
let small: string;
let other: string;

/** A source of `count` chunks with the given (or random) vectors, in documents of 10 chunks. */
async function source(domain: TestDomain, count: number, vectorOf: (i: number) => number[] = unit) {
  const store = knowledgeStore(t.ctx.db);
  const sourceId = newSourceId();
  const domainId = domain.domain.id;
  await store.insert({ id: sourceId, domainId, kind: 'files', displayName: 'Vectors' });
  for (let d = 0; d * 10 < count; d++) {
    const documentId = newDocumentId();
    await store.insertDocument({
      id: documentId,
      domainId,
      sourceId,
      title: `Doc ${d}`,
      url: `https://d/${d}`,
    });
    const chunks = Array.from({ length: Math.min(10, count - d * 10) }, (_, i) => ({
      id: `kc${sourceId}-${d * 10 + i}`,
      domainId,
      sourceId,
      documentId,
      ord: i,
      text: `chunk ${d * 10 + i}`,
      embedding: vectorOf(d * 10 + i),
      embeddingModel: MODEL,
    }));
    await store.replaceChunks(domainId, documentId, chunks);
  }
  return sourceId;
}

beforeAll(async () => {
  t = await buildTestApp();
  if (await hasVectors(t.ctx.db)) await ensureVectorIndex(t.ctx.db, DIMS);
  a = await makeDomain(t.ctx, { premium: true });
  b = await makeDomain(t.ctx, { premium: true });
  big = await source(a, 600);
  small = await source(a, 7);
  // Another domain's chunks, some pointing exactly where the queries below point.
  other = await source(b, 200);
}, 120_000);

afterAll(async () => {
  await t?.close();
}, 60_000);

/** The chunk ids the nearest-neighbour half alone answers (a query of no words). */
const nearest = async (
  domain: TestDomain,
  sources: string[],
  vector: number[],
  scan: 'auto' | 'array',
  limit = 6,
) =>
  (
    await retrieve(t.ctx.db, domain.domain.id, sources, '?', {
      limit,
      embedding: { vector, model: MODEL },
      ...(scan === 'array' ? { vectorScan: scan } : {}),
    })
  ).map((h) => h.chunkId);

describe('nearest-neighbour search', () => {
  it('uses pgvector’s HNSW index on the embedded database', async () => {
    if (t.ctx.dbKind === 'pglite') expect(await hasVectors(t.ctx.db)).toBe(true);
    if (!(await hasVectors(t.ctx.db))) {
      // PostgreSQL without pgvector: no mirror column, the exact scan of real[] answers.
      const [row] = rowsOf<{ n: number }>(
        await t.ctx.db.execute(
          sql`select count(*)::int as n from information_schema.columns where column_name = 'embedding_vector'`,
        ),
      );
      expect(row?.n).toBe(0);
      return;
    }
    const q = `[${unit().join(',')}]`;
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await t.ctx.db.execute(
        sql.raw(`explain select id from knowledge_chunks where domain_id = '${a.domain.id}'
          and vector_dims(embedding_vector) = ${DIMS}
          order by embedding_vector::vector(${DIMS}) <#> '${q}'::vector(${DIMS}) limit 24`),
      ),
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain(`knowledge_chunks_embedding_${DIMS}_idx`);
  });

  it('gives the same answers through the index as the exact scan of real[]', async () => {
    for (let i = 0; i < 25; i++) {
      const vector = unit();
      expect(await nearest(a, [big, small], vector, 'auto')).toEqual(
        await nearest(a, [big, small], vector, 'array'),
      );
    }
  });

  it('answers a chunk’s own vector with that chunk first', async () => {
    const [row] = rowsOf<{ id: string; embedding: number[] }>(
      await t.ctx.db.execute(
        sql`select id, embedding from knowledge_chunks where source_id = ${big} limit 1`,
      ),
    );
    expect((await nearest(a, [big], row?.embedding ?? [], 'auto'))[0]).toBe(row?.id);
  });

  it('keeps to the domain and the sources asked for, even when others lie nearer', async () => {
    const [row] = rowsOf<{ embedding: number[] }>(
      await t.ctx.db.execute(sql`select embedding from knowledge_chunks where source_id = ${other} limit 1`),
    );
    const vector = row?.embedding ?? [];
    const found = await nearest(a, [big, other], vector, 'auto');
    expect(found).toHaveLength(6);
    expect(found.every((id) => id.startsWith(`kc${big}-`))).toBe(true);
    // A source of the domain not asked for is not searched either.
    const onlySmall = await nearest(a, [small], vector, 'auto', 50);
    expect(onlySmall.every((id) => id.startsWith(`kc${small}-`))).toBe(true);
  });

  it('finds every chunk of a source smaller than the candidate list (the index alone finds too few)', async () => {
    const vector = unit();
    const found = await nearest(a, [small], vector, 'auto', 50);
    expect(found).toHaveLength(7);
    expect(found).toEqual(await nearest(a, [small], vector, 'array', 50));
  });
});
