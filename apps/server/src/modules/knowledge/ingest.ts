import type { Readable } from 'node:stream';
import type { KnowledgeFailure } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { publishDocument } from './events.ts';
import { ExtractError, Extractor } from './extractor.ts';
import { IndexError, indexText } from './indexer.ts';
import { type DocumentRow, knowledgeStore } from './store.ts';
import { tidyChunks } from './upkeep.ts';

/** Uploads indexed at once by one process: extraction has one thread, embeddings are batched. */
const CONCURRENCY = 2;
/** An "indexing" document untouched this long was left by a process that died. */
const STALE_MS = 15 * 60_000;

async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

/** Errors whose message is for the Admin (the document's fault or the provider's); others are ours. */
const expected = (err: unknown): err is IndexError | ExtractError =>
  err instanceof IndexError || err instanceof ExtractError;

/**
 * Turns uploaded documents into chunks in the background: a queue in this process, fed by uploads
 * and by the scheduler (pending uploads a restart left behind). A document is claimed before it is
 * read, so two replicas never index the same one.
 */
export function createIngest(ctx: AppContext) {
  const extractor = new Extractor(ctx.log);
  const store = knowledgeStore(ctx.db);
  const queue: string[] = [];
  const queued = new Set<string>();
  const running = new Set<Promise<void>>();
  let closed = false;
  /** Chunks were written since the index was last tidied. */
  let written = false;

  async function indexUpload(doc: DocumentRow): Promise<void> {
    try {
      if (!doc.storageKey || !doc.contentType)
        throw new IndexError('The document has no stored file', { kind: 'no_file' });
      const object = await ctx.services.storage.bucket('knowledge').get(doc.storageKey);
      const data = await readAll(object.body);
      const text = await extractor.file(doc.domainId, doc.contentType, data);
      if (!text.trim()) throw new IndexError('No text could be read from this document', { kind: 'no_text' });
      await indexText(
        ctx,
        { domainId: doc.domainId, sourceId: doc.sourceId, documentId: doc.id, title: doc.title },
        text,
      );
    } catch (err) {
      if (!expected(err)) ctx.log.warn({ err, document: doc.id }, 'knowledge upload not indexed');
      const error = expected(err) ? err.message : 'The document could not be indexed';
      const errorReason: KnowledgeFailure = expected(err) ? err.reason : { kind: 'failed' };
      await store.updateDocument(doc.domainId, doc.id, { status: 'error', error, errorReason });
      publishDocument(ctx, { ...doc, status: 'error', error, errorReason });
    }
  }

  function pump(): void {
    while (!closed && running.size < CONCURRENCY && queue.length > 0) {
      const id = queue.shift() as string;
      const run = (async () => {
        const doc = await store.claimDocument(id);
        if (!doc) return;
        publishDocument(ctx, doc);
        written = true;
        await indexUpload(doc);
      })()
        .catch((err: unknown) => ctx.log.error({ err, document: id }, 'knowledge indexing failed'))
        .finally(() => {
          queued.delete(id);
          running.delete(run);
          pump();
          if (running.size === 0 && written && !closed) tidy();
        });
      running.add(run);
    }
  }

  /** Once the queue is drained: one tidy for a batch of uploads (idle() waits for it too). */
  function tidy(): void {
    written = false;
    const run = tidyChunks(ctx, { statistics: false }).finally(() => {
      running.delete(run);
      pump();
    });
    running.add(run);
  }

  return {
    extractor,

    /** Indexes the document soon, in this process. */
    enqueue(documentId: string): void {
      if (closed || queued.has(documentId)) return;
      queued.add(documentId);
      queue.push(documentId);
      pump();
    },

    /** Scheduler work: picks up uploads no process is indexing (after a restart). */
    async resume(): Promise<void> {
      for (const doc of await store.releaseStale(new Date(Date.now() - STALE_MS))) publishDocument(ctx, doc);
      for (const { id } of await store.pendingUploads(100)) this.enqueue(id);
    },

    /** Resolves once nothing is queued or running (tests, shutdown). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.race(running);
    },

    async close(): Promise<void> {
      closed = true;
      queue.length = 0;
      await Promise.allSettled([...running]);
      await extractor.close();
    },
  };
}

export type Ingest = ReturnType<typeof createIngest>;
