import { and, asc, count, eq, gt, inArray, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { knowledgeChunks, knowledgeDocuments, knowledgeSources } from '../../db/schema/index.ts';
import { type KeyedPage, keyedPage } from '../../lib/paging.ts';

export type SourceRow = typeof knowledgeSources.$inferSelect;
export type SourceInsert = typeof knowledgeSources.$inferInsert;
/** What a change may set of a source: all but what it is (id, domain, kind) and its timestamps. */
export type SourcePatch = Partial<Omit<SourceRow, 'id' | 'domainId' | 'kind' | 'createdAt' | 'updatedAt'>>;
export type DocumentRow = typeof knowledgeDocuments.$inferSelect;
export type DocumentInsert = typeof knowledgeDocuments.$inferInsert;
export type ChunkInsert = typeof knowledgeChunks.$inferInsert;

/** What a change of state returns of a source: enough to tell the Admins' screens (events.ts). */
const sourceState = {
  id: knowledgeSources.id,
  domainId: knowledgeSources.domainId,
  status: knowledgeSources.status,
  progress: knowledgeSources.progress,
  error: knowledgeSources.error,
  errorReason: knowledgeSources.errorReason,
};
export type SourceState = Pick<SourceRow, keyof typeof sourceState>;
/** The same of a document. */
const documentState = {
  id: knowledgeDocuments.id,
  domainId: knowledgeDocuments.domainId,
  sourceId: knowledgeDocuments.sourceId,
  status: knowledgeDocuments.status,
};
export type DocumentState = Pick<DocumentRow, keyof typeof documentState>;

/** A source with how much of it is indexed. */
export type SourceWithCounts = SourceRow & { documents: number; chunks: number; indexing: number };

/**
 * SQL for knowledge sources and documents. Every function takes the domain the service already
 * checked the caller may act on and filters by it: another domain's row is never read or written.
 */
export function knowledgeStore(db: Db | Tx) {
  async function counts(
    sourceIds: string[],
  ): Promise<Map<string, { documents: number; chunks: number; indexing: number }>> {
    if (sourceIds.length === 0) return new Map();
    const rows = await db
      .select({
        sourceId: knowledgeDocuments.sourceId,
        documents: count(),
        chunks: sql<number>`coalesce(sum(${knowledgeDocuments.chunks}), 0)::int`,
        indexing: sql<number>`(count(*) filter (where ${knowledgeDocuments.status} in ('pending', 'indexing')))::int`,
      })
      .from(knowledgeDocuments)
      .where(inArray(knowledgeDocuments.sourceId, sourceIds))
      .groupBy(knowledgeDocuments.sourceId);
    return new Map(
      rows.map((r) => [
        r.sourceId,
        { documents: r.documents, chunks: Number(r.chunks), indexing: Number(r.indexing) },
      ]),
    );
  }

  const withCounts = async (rows: SourceRow[]): Promise<SourceWithCounts[]> => {
    const c = await counts(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, documents: 0, chunks: 0, indexing: 0, ...c.get(r.id) }));
  };

  return {
    async list(domainId: string): Promise<SourceWithCounts[]> {
      const rows = await db
        .select()
        .from(knowledgeSources)
        .where(eq(knowledgeSources.domainId, domainId))
        .orderBy(asc(knowledgeSources.createdAt), asc(knowledgeSources.id));
      return withCounts(rows);
    },

    async find(domainId: string, id: string): Promise<SourceRow | undefined> {
      const [row] = await db
        .select()
        .from(knowledgeSources)
        .where(and(eq(knowledgeSources.domainId, domainId), eq(knowledgeSources.id, id)))
        .limit(1);
      return row;
    },

    async findWithCounts(domainId: string, id: string): Promise<SourceWithCounts | undefined> {
      const row = await this.find(domainId, id);
      return row ? (await withCounts([row]))[0] : undefined;
    },

    /** Which of `ids` are sources of the domain (a santito may only list those). */
    async existing(domainId: string, ids: string[]): Promise<SourceRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(knowledgeSources)
        .where(and(eq(knowledgeSources.domainId, domainId), inArray(knowledgeSources.id, ids)));
    },

    async insert(values: SourceInsert): Promise<SourceRow> {
      const [row] = await db.insert(knowledgeSources).values(values).returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    },

    async update(domainId: string, id: string, patch: SourcePatch): Promise<SourceRow | undefined> {
      const [row] = await db
        .update(knowledgeSources)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(knowledgeSources.domainId, domainId), eq(knowledgeSources.id, id)))
        .returning();
      return row;
    },

    async remove(domainId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(knowledgeSources)
        .where(and(eq(knowledgeSources.domainId, domainId), eq(knowledgeSources.id, id)))
        .returning({ id: knowledgeSources.id });
      return rows.length > 0;
    },

    /** Storage keys of a source's uploads, to remove the files with the rows. */
    async storageKeys(domainId: string, sourceId: string): Promise<string[]> {
      const rows = await db
        .select({ key: knowledgeDocuments.storageKey })
        .from(knowledgeDocuments)
        .where(
          and(
            eq(knowledgeDocuments.domainId, domainId),
            eq(knowledgeDocuments.sourceId, sourceId),
            isNotNull(knowledgeDocuments.storageKey),
          ),
        );
      return rows.flatMap((r) => (r.key ? [r.key] : []));
    },

    /**
     * Marks a source syncing unless it already is: only one process syncs it. No progress yet:
     * until the sync has counted the pages, "0 of 0" would be a wrong total.
     */
    async claimSync(domainId: string, id: string): Promise<SourceRow | undefined> {
      const [row] = await db
        .update(knowledgeSources)
        .set({ status: 'syncing', progress: null, updatedAt: new Date() })
        .where(
          and(
            eq(knowledgeSources.domainId, domainId),
            eq(knowledgeSources.id, id),
            ne(knowledgeSources.status, 'syncing'),
          ),
        )
        .returning();
      return row;
    },

    /**
     * Syncs a dead process left "syncing" end as errors, so the next run takes them again.
     * Answers the sources released.
     */
    releaseStaleSyncs(before: Date): Promise<SourceState[]> {
      return db
        .update(knowledgeSources)
        .set({
          status: 'error',
          error: 'The sync was interrupted',
          errorReason: { kind: 'interrupted' },
          progress: null,
        })
        .where(and(eq(knowledgeSources.status, 'syncing'), lte(knowledgeSources.updatedAt, before)))
        .returning(sourceState);
    },

    /** A files source's failed uploads go back to the queue; answers them. */
    retryFailedUploads(domainId: string, sourceId: string): Promise<DocumentState[]> {
      return db
        .update(knowledgeDocuments)
        .set({ status: 'pending', error: null, errorReason: null })
        .where(
          and(
            eq(knowledgeDocuments.domainId, domainId),
            eq(knowledgeDocuments.sourceId, sourceId),
            eq(knowledgeDocuments.status, 'error'),
            isNotNull(knowledgeDocuments.storageKey),
          ),
        )
        .returning(documentState);
    },

    /** Sources the scheduler should sync now: due Confluence sources not already syncing. */
    dueSources(now: Date, limit: number): Promise<SourceRow[]> {
      return db
        .select()
        .from(knowledgeSources)
        .where(
          and(
            eq(knowledgeSources.kind, 'confluence'),
            lte(knowledgeSources.nextSyncAt, now),
            or(eq(knowledgeSources.status, 'idle'), eq(knowledgeSources.status, 'error')),
          ),
        )
        .orderBy(asc(knowledgeSources.nextSyncAt))
        .limit(limit);
    },

    async documents(
      domainId: string,
      sourceId: string,
      limit: number,
      after?: readonly [string, string],
    ): Promise<KeyedPage<DocumentRow>> {
      const scope = and(eq(knowledgeDocuments.domainId, domainId), eq(knowledgeDocuments.sourceId, sourceId));
      const cursor = after
        ? or(
            gt(knowledgeDocuments.createdAt, new Date(after[0])),
            and(eq(knowledgeDocuments.createdAt, new Date(after[0])), gt(knowledgeDocuments.id, after[1])),
          )
        : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(knowledgeDocuments)
          .where(and(scope, cursor))
          .orderBy(asc(knowledgeDocuments.createdAt), asc(knowledgeDocuments.id))
          .limit(limit + 1),
        db.select({ n: count() }).from(knowledgeDocuments).where(scope),
      ]);
      return keyedPage(
        rows,
        limit,
        total?.n ?? 0,
        (r) => [r.createdAt.toISOString(), r.id],
        (r) => r,
      );
    },

    /** Every document of a source (sync reconciles against it). */
    allDocuments(domainId: string, sourceId: string): Promise<DocumentRow[]> {
      return db
        .select()
        .from(knowledgeDocuments)
        .where(and(eq(knowledgeDocuments.domainId, domainId), eq(knowledgeDocuments.sourceId, sourceId)));
    },

    async findDocument(domainId: string, sourceId: string, id: string): Promise<DocumentRow | undefined> {
      const [row] = await db
        .select()
        .from(knowledgeDocuments)
        .where(
          and(
            eq(knowledgeDocuments.domainId, domainId),
            eq(knowledgeDocuments.sourceId, sourceId),
            eq(knowledgeDocuments.id, id),
          ),
        )
        .limit(1);
      return row;
    },

    async insertDocument(values: DocumentInsert): Promise<DocumentRow> {
      const [row] = await db.insert(knowledgeDocuments).values(values).returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    },

    /**
     * Confluence pages' documents, new or known (by source and page id), in one statement: a
     * known one takes the new title, link and version; both are left at `status`.
     */
    async upsertPages(values: DocumentInsert[]): Promise<void> {
      if (values.length === 0) return;
      await db
        .insert(knowledgeDocuments)
        .values(values)
        .onConflictDoUpdate({
          target: [knowledgeDocuments.sourceId, knowledgeDocuments.externalId],
          set: {
            title: sql`excluded.title`,
            url: sql`excluded.url`,
            version: sql`excluded.version`,
            status: sql`excluded.status`,
            updatedAt: new Date(),
          },
        });
    },

    async updateDocument(
      domainId: string,
      id: string,
      patch: Partial<Omit<DocumentInsert, 'id' | 'domainId' | 'sourceId'>>,
    ): Promise<void> {
      await db
        .update(knowledgeDocuments)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(knowledgeDocuments.domainId, domainId), eq(knowledgeDocuments.id, id)));
    },

    async removeDocument(domainId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(knowledgeDocuments)
        .where(and(eq(knowledgeDocuments.domainId, domainId), eq(knowledgeDocuments.id, id)))
        .returning({ id: knowledgeDocuments.id });
      return rows.length > 0;
    },

    /** Takes a pending document for indexing: only one process gets it. */
    async claimDocument(id: string): Promise<DocumentRow | undefined> {
      const [row] = await db
        .update(knowledgeDocuments)
        .set({ status: 'indexing', error: null, errorReason: null, updatedAt: new Date() })
        .where(and(eq(knowledgeDocuments.id, id), eq(knowledgeDocuments.status, 'pending')))
        .returning();
      return row;
    },

    /** Uploads waiting for indexing (a restart left them), oldest first, across domains. */
    pendingUploads(limit: number): Promise<Pick<DocumentRow, 'id'>[]> {
      return db
        .select({ id: knowledgeDocuments.id })
        .from(knowledgeDocuments)
        .where(and(eq(knowledgeDocuments.status, 'pending'), isNotNull(knowledgeDocuments.storageKey)))
        .orderBy(asc(knowledgeDocuments.createdAt))
        .limit(limit);
    },

    /**
     * Documents a dead process left "indexing" for longer than any indexing takes go back to
     * pending; answers them.
     */
    releaseStale(before: Date): Promise<DocumentState[]> {
      return db
        .update(knowledgeDocuments)
        .set({ status: 'pending' })
        .where(and(eq(knowledgeDocuments.status, 'indexing'), lte(knowledgeDocuments.updatedAt, before)))
        .returning(documentState);
    },

    /**
     * Replaces several documents' chunks and marks the documents ready with their counts: one
     * delete, multi-row inserts and one update for them all (run it in a transaction).
     */
    async replaceChunksOf(
      docs: ReadonlyArray<{ domainId: string; documentId: string; rows: ChunkInsert[] }>,
    ): Promise<void> {
      if (docs.length === 0) return;
      const byDomain = new Map<string, string[]>();
      for (const d of docs) byDomain.set(d.domainId, [...(byDomain.get(d.domainId) ?? []), d.documentId]);
      for (const [domainId, ids] of byDomain) {
        await db
          .delete(knowledgeChunks)
          .where(and(eq(knowledgeChunks.domainId, domainId), inArray(knowledgeChunks.documentId, ids)));
      }
      const rows = docs.flatMap((d) => d.rows);
      // Bounded batches: one statement's parameters stay far below PostgreSQL's 65,535.
      for (let i = 0; i < rows.length; i += 500) {
        await db.insert(knowledgeChunks).values(rows.slice(i, i + 500));
      }
      const counts = sql.join(
        docs.map((d) => sql`(${d.domainId}, ${d.documentId}, ${d.rows.length}::int)`),
        sql`, `,
      );
      await db.execute(sql`update ${knowledgeDocuments} set status = 'ready', error = null, error_reason = null,
        chunks = v.n, updated_at = now()
        from (values ${counts}) as v(domain_id, id, n)
        where ${knowledgeDocuments.domainId} = v.domain_id and ${knowledgeDocuments.id} = v.id`);
    },

    /** Replaces a document's chunks (a re-index never leaves old and new side by side). */
    async replaceChunks(domainId: string, documentId: string, chunks: ChunkInsert[]): Promise<void> {
      await db
        .delete(knowledgeChunks)
        .where(and(eq(knowledgeChunks.domainId, domainId), eq(knowledgeChunks.documentId, documentId)));
      // Bounded batches: one statement's parameters stay far below PostgreSQL's 65,535.
      for (let i = 0; i < chunks.length; i += 200) {
        await db.insert(knowledgeChunks).values(chunks.slice(i, i + 200));
      }
    },
  };
}

export type KnowledgeStore = ReturnType<typeof knowledgeStore>;
