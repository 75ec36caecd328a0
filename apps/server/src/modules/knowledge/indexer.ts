import type { KnowledgeFailure } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { ensureVectorIndex, hasVectors } from '../../db/vectors.ts';
import { randomBase62 } from '../../lib/random-id.ts';
import { providerFailureOf } from '../providers/errors.ts';
import { MAX_CHUNKS } from './bounds.ts';
import { type Chunk, chunkText } from './chunker.ts';
import { embedCounted } from './embeddings.ts';
import { publishDocument } from './events.ts';
import { type Hit, type QueryEmbedding, retrieve } from './retrieval.ts';
import { type ChunkInsert, knowledgeStore } from './store.ts';

const newChunkId = () => `kc${randomBase62(16)}`;

/** What the model reads of a chunk, and what its embedding is made from: title, headings, text. */
const chunkContext = (title: string, chunk: Pick<Chunk, 'heading' | 'text'>) =>
  [title, chunk.heading, chunk.text].filter(Boolean).join('\n');

export interface IndexTarget {
  domainId: string;
  sourceId: string;
  documentId: string;
  title: string;
}

/** Why indexing failed, for the document's and the source's `error` and `errorReason`. */
export class IndexError extends Error {
  override name = 'IndexError';
  constructor(
    message: string,
    readonly reason: KnowledgeFailure,
  ) {
    super(message);
  }
}

/** A document's chunks, embedded and ready to be written (`writeDocuments`). */
export interface PreparedDocument {
  target: IndexTarget;
  rows: ChunkInsert[];
}

/**
 * Chunks a document's text and embeds the chunks through the domain's embedding model (one
 * request per 64 chunks), writing nothing yet.
 */
export async function prepareText(
  ctx: AppContext,
  doc: IndexTarget,
  text: string,
  signal?: AbortSignal,
): Promise<PreparedDocument> {
  const chunks = chunkText(text);
  if (chunks.length > MAX_CHUNKS)
    throw new IndexError(
      `The document would make ${chunks.length} passages; at most ${MAX_CHUNKS} are indexed per document`,
      { kind: 'too_many_passages', count: chunks.length, limit: MAX_CHUNKS },
    );
  const target = await ctx.services.providers.embeddingModel(doc.domainId);
  let vectors: number[][] = [];
  if (target && chunks.length > 0) {
    try {
      vectors = await embedCounted(
        ctx,
        doc.domainId,
        target,
        chunks.map((c) => chunkContext(doc.title, c)),
        signal,
      );
    } catch (err) {
      ctx.log.warn(
        { reason: (err as Error).message, document: doc.documentId },
        'knowledge embeddings failed',
      );
      throw new IndexError(`The embedding model ${target.modelId} failed: ${(err as Error).message}`, {
        kind: 'provider',
        failure: providerFailureOf(err),
      });
    }
  }
  const rows: ChunkInsert[] = chunks.map((c, ord) => ({
    id: newChunkId(),
    domainId: doc.domainId,
    sourceId: doc.sourceId,
    documentId: doc.documentId,
    ord,
    heading: c.heading,
    text: c.text,
    embedding: vectors[ord] ?? [],
    embeddingModel: vectors[ord] && target ? target.modelId : '',
  }));
  return { target: doc, rows };
}

/**
 * Replaces the chunks of several documents and marks them ready, in one transaction: a failure
 * leaves what was indexed before untouched. A few statements for the whole batch, where a
 * transaction per document spent most of a sync's database time on its own statements.
 */
export async function writeDocuments(ctx: AppContext, docs: readonly PreparedDocument[]): Promise<void> {
  if (docs.length === 0) return;
  // The nearest-neighbour index of these vectors' dimension count exists before they are written
  // (once per process): built over rows already there, it would hold the database that long.
  const dims = docs.flatMap((d) => d.rows).find((r) => r.embedding.length > 0)?.embedding.length;
  if (dims && (await hasVectors(ctx.db))) await ensureVectorIndex(ctx.db, dims);
  await ctx.db.transaction(async (tx) => {
    await knowledgeStore(tx).replaceChunksOf(
      docs.map((d) => ({ domainId: d.target.domainId, documentId: d.target.documentId, rows: d.rows })),
    );
  });
  for (const d of docs) {
    publishDocument(ctx, {
      id: d.target.documentId,
      domainId: d.target.domainId,
      sourceId: d.target.sourceId,
      status: 'ready',
      chunks: d.rows.length,
    });
  }
}

/**
 * Chunks a document's text, embeds the chunks and replaces the document's chunks in one
 * transaction: a failure leaves what was indexed before untouched. Answers the number of chunks.
 */
export async function indexText(
  ctx: AppContext,
  doc: IndexTarget,
  text: string,
  signal?: AbortSignal,
): Promise<number> {
  const prepared = await prepareText(ctx, doc, text, signal);
  await writeDocuments(ctx, [prepared]);
  return prepared.rows.length;
}

/** Documents written in one transaction at most by `chunkWriter`. */
const WRITE_BATCH = 32;

/**
 * Writes prepared documents as they come, in batches: while one batch's transaction runs, the
 * documents prepared meanwhile wait for the next. `write` resolves once its document is written.
 */
export function chunkWriter(ctx: AppContext) {
  const queue: Array<{ doc: PreparedDocument; resolve: () => void; reject: (err: unknown) => void }> = [];
  let draining = false;
  async function drain(): Promise<void> {
    draining = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, WRITE_BATCH);
      try {
        await writeDocuments(
          ctx,
          batch.map((b) => b.doc),
        );
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    draining = false;
  }
  return {
    write(doc: PreparedDocument): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ doc, resolve, reject });
        if (!draining) void drain();
      });
    },
  };
}

/**
 * Embeddings of recent questions (by domain, model and text), oldest first: an answer regenerated,
 * an edit sent again or a question asked twice skips the embeddings call before its first token.
 */
const recentQueries = new Map<string, { at: number; vector: number[] }>();
const QUERIES_KEPT = 500;
const QUERY_TTL_MS = 10 * 60_000;

/**
 * The chunks of `sourceIds` (of `domainId`) that best answer `query`: hybrid retrieval with the
 * query embedded by the same model as the chunks. The keyword half runs while the query is being
 * embedded; an embedding failure falls back to keywords.
 */
export async function searchKnowledge(
  ctx: AppContext,
  domainId: string,
  sourceIds: readonly string[],
  query: string,
  limit: number,
): Promise<Hit[]> {
  if (sourceIds.length === 0 || !query.trim()) return [];
  const embedding = (async (): Promise<QueryEmbedding | undefined> => {
    const target = await ctx.services.providers.embeddingModel(domainId);
    if (!target) return undefined;
    const key = `${domainId}\n${target.modelId}\n${query}`;
    const known = recentQueries.get(key);
    if (known && Date.now() - known.at < QUERY_TTL_MS) return { vector: known.vector, model: target.modelId };
    try {
      const [vector] = await embedCounted(ctx, domainId, target, [query], AbortSignal.timeout(10_000));
      if (!vector) return undefined;
      recentQueries.delete(key);
      recentQueries.set(key, { at: Date.now(), vector });
      if (recentQueries.size > QUERIES_KEPT)
        recentQueries.delete(recentQueries.keys().next().value as string);
      return { vector, model: target.modelId };
    } catch (err) {
      ctx.log.warn({ err, domain: domainId }, 'knowledge query embedding failed; keyword search only');
      return undefined;
    }
  })();
  return retrieve(ctx.db, domainId, sourceIds, query, { limit, embedding });
}
