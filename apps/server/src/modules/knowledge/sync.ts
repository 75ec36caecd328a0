import type { ConfluenceTestResult, KnowledgeFailure } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { atOnce, readAhead } from '../../lib/at-once.ts';
import { createGuardedHttp } from '../../lib/ssrf.ts';
import { ConfluenceError, type ConfluencePage, confluenceClient } from './confluence.ts';
import { publishDocument, publishDocumentRemoved, publishSource } from './events.ts';
import { chunkWriter, IndexError, prepareText } from './indexer.ts';
import type { Ingest } from './ingest.ts';
import { newDocumentId } from './service-ids.ts';
import { type DocumentRow, knowledgeStore, type SourceRow } from './store.ts';
import { tidyChunks } from './upkeep.ts';

/** A "syncing" source untouched this long was left by a process that died. */
const STALE_SYNC_MS = 30 * 60_000;
/** Sources one scheduler run syncs (the others wait for the next run). */
const PER_RUN = 5;
/**
 * Pages of a source extracted and embedded at once: their embeddings calls and text extraction
 * overlap each other and the writes, and the pages that wait for the writer make its next batch
 * (one transaction for them all: see chunkWriter). One page at a time, PostgreSQL indexed ≈ 14
 * pages/s on a test machine, mostly waiting for commits.
 */
const PAGES_AT_ONCE = 8;

const describe = (err: unknown) =>
  err instanceof ConfluenceError || err instanceof IndexError ? err.message : 'The sync failed';
const reasonOf = (err: unknown): KnowledgeFailure =>
  err instanceof ConfluenceError || err instanceof IndexError ? err.reason : { kind: 'failed' };

/**
 * Confluence syncs (docs/ARCHITECTURE.md#knowledge): incremental by `version.number`, pages gone from Confluence
 * removed, progress on the source row as it goes (out of every page of the spaces, counted
 * first). A failure marks the source with its error and keeps every document it had.
 */
export function createSync(ctx: AppContext, ingest: Ingest, openToken: (row: SourceRow) => string | null) {
  const guard = createGuardedHttp({ allowlist: ctx.config.PROVIDER_URL_ALLOWLIST });
  const store = knowledgeStore(ctx.db);
  const controller = new AbortController();

  function clientFor(row: SourceRow) {
    if (!row.confluence)
      throw new ConfluenceError('This source has no Confluence settings', { kind: 'failed' });
    const token = openToken(row);
    if (!token)
      throw new ConfluenceError('The stored API token cannot be read; enter it again', {
        kind: 'token_unreadable',
      });
    return confluenceClient({
      site: row.confluence.baseUrl,
      email: row.confluence.email,
      apiToken: token,
      fetch: guard.fetch,
      signal: controller.signal,
    });
  }

  /**
   * Stores how far a sync got and tells the screens. `total` never reads less than `done`: a
   * screen is never told "41 of 40", whatever Confluence changed while the sync ran.
   */
  async function setProgress(row: SourceRow, progress: { done: number; total: number }): Promise<void> {
    const updated = await store.update(row.domainId, row.id, {
      progress: { done: progress.done, total: Math.max(progress.total, progress.done) },
    });
    if (updated) publishSource(ctx, updated);
  }

  /**
   * Marks a source syncing unless it already is (only one process syncs it), and tells the
   * screens. Answers the claimed row, for `runClaimed`.
   */
  async function claim(domainId: string, id: string): Promise<SourceRow | undefined> {
    const claimed = await store.claimSync(domainId, id);
    if (claimed) publishSource(ctx, claimed);
    return claimed;
  }

  /**
   * Marks a batch of pages (new, or changed since the last sync) indexing: their document rows
   * written in one statement. Answers each page's document id.
   */
  async function startPages(
    row: SourceRow,
    known: Map<string | null, DocumentRow>,
    pages: readonly ConfluencePage[],
  ): Promise<Map<string, string>> {
    const ids = new Map(pages.map((p) => [p.id, known.get(p.id)?.id ?? newDocumentId()]));
    await store.upsertPages(
      pages.map((page) => ({
        id: ids.get(page.id) as string,
        domainId: row.domainId,
        sourceId: row.id,
        externalId: page.id,
        version: page.version,
        title: page.title,
        url: page.url,
        status: 'indexing' as const,
        contentType: 'text/html',
        size: Buffer.byteLength(page.body ?? ''),
      })),
    );
    for (const id of ids.values()) {
      publishDocument(ctx, { id, domainId: row.domainId, sourceId: row.id, status: 'indexing' });
    }
    return ids;
  }

  /** Extracts and embeds one page, then hands it to the writer (which batches transactions). */
  async function indexPage(
    row: SourceRow,
    documentId: string,
    page: ConfluencePage,
    writer: ReturnType<typeof chunkWriter>,
  ) {
    const text = await ingest.extractor.html(row.domainId, page.body ?? '');
    const prepared = await prepareText(
      ctx,
      { domainId: row.domainId, sourceId: row.id, documentId, title: page.title },
      `# ${page.title}\n\n${text}`,
      controller.signal,
    );
    await writer.write(prepared);
  }

  async function syncConfluence(row: SourceRow): Promise<void> {
    const client = clientFor(row);
    const spaces = await client.spaces(row.confluence?.spaces ?? []);
    const missing = (row.confluence?.spaces ?? []).filter((k) => !spaces.some((s) => s.key === k));
    if (missing.length > 0)
      throw new ConfluenceError(`Space not found or not readable: ${missing.join(', ')}`, {
        kind: 'space_missing',
        spaces: missing,
      });
    const known = new Map((await store.allDocuments(row.domainId, row.id)).map((d) => [d.externalId, d]));

    // Every page listed first, without bodies: the Admin sees the true total from the start, and
    // only the bodies of pages new or changed since the last sync are fetched at all.
    const listed: ConfluencePage[] = [];
    for (const space of spaces) {
      for await (const batch of client.pages(space.id)) listed.push(...batch);
    }
    const seen = new Set(listed.map((p) => p.id));
    const pending = new Set(
      listed
        .filter((page) => {
          const current = known.get(page.id);
          return !(current && current.version === page.version && current.status === 'ready');
        })
        .map((p) => p.id),
    );
    const progress = { done: seen.size - pending.size, total: seen.size };
    await setProgress(row, progress);

    const spaceIds = new Set(spaces.map((s) => s.id));
    const writer = chunkWriter(ctx);
    // The next batch of bodies is on its way while this one is indexed.
    for await (const batch of readAhead(client.bodies([...pending]))) {
      const asked = batch.filter((page) => pending.delete(page.id));
      const kept = asked.filter((page) => page.spaceId === undefined || spaceIds.has(page.spaceId));
      // Moved out of the chosen spaces since the listing: gone from this source, as on the next sync.
      for (const page of asked) if (!kept.includes(page)) seen.delete(page.id);
      progress.done += asked.length - kept.length;
      const documentIds = await startPages(row, known, kept);
      await atOnce(kept, PAGES_AT_ONCE, async (page) => {
        await indexPage(row, documentIds.get(page.id) as string, page, writer);
        progress.done++;
      });
      await setProgress(row, progress);
    }
    // Listed, but not answered with a body: deleted (or made unreadable) since the listing.
    if (pending.size > 0) {
      for (const id of pending) seen.delete(id);
      progress.done += pending.size;
      await setProgress(row, progress);
    }

    // Pages gone from Confluence (deleted, moved out of the spaces) leave the index too.
    for (const [externalId, doc] of known) {
      if (externalId && !seen.has(externalId) && (await store.removeDocument(row.domainId, doc.id))) {
        publishDocumentRemoved(ctx, doc);
      }
    }
  }

  /** Runs one source's sync if no one else is: answers false when it was already syncing. */
  async function syncOne(row: SourceRow): Promise<boolean> {
    const claimed = await claim(row.domainId, row.id);
    if (!claimed) return false;
    await runClaimed(claimed);
    return true;
  }

  /** The sync of a source this process marked `syncing` (`claim`). */
  async function runClaimed(claimed: SourceRow): Promise<void> {
    const next = new Date(Date.now() + ctx.config.KNOWLEDGE_SYNC_INTERVAL_MS);
    try {
      if (claimed.kind === 'confluence') {
        await syncConfluence(claimed);
        await tidyChunks(ctx, { statistics: true });
      } else {
        for (const doc of await store.retryFailedUploads(claimed.domainId, claimed.id)) {
          publishDocument(ctx, doc);
        }
      }
      const ended = await store.update(claimed.domainId, claimed.id, {
        status: 'idle',
        error: null,
        errorReason: null,
        progress: null,
        lastSyncAt: new Date(),
        nextSyncAt: claimed.kind === 'confluence' ? next : null,
      });
      if (ended) publishSource(ctx, ended);
      if (claimed.kind === 'files') await ingest.resume();
    } catch (err) {
      if (!(err instanceof ConfluenceError) && !(err instanceof IndexError)) {
        ctx.log.warn({ err, source: claimed.id }, 'knowledge sync failed');
      }
      const failed = await store.update(claimed.domainId, claimed.id, {
        status: 'error',
        error: describe(err),
        errorReason: reasonOf(err),
        progress: null,
        nextSyncAt: claimed.kind === 'confluence' ? next : null,
      });
      if (failed) publishSource(ctx, failed);
    }
  }

  return {
    claim,
    syncOne,
    runClaimed,

    /** The scheduler's run: uploads left pending, then the Confluence sources that are due. */
    async run(): Promise<void> {
      await ingest.resume();
      for (const row of await store.releaseStaleSyncs(new Date(Date.now() - STALE_SYNC_MS))) {
        publishSource(ctx, row);
      }
      for (const row of await store.dueSources(new Date(), PER_RUN)) {
        if (controller.signal.aborted) return;
        await syncOne(row);
      }
    },

    /** "Test connection": the spaces the token reads, with their page counts. */
    async test(row: SourceRow): Promise<ConfluenceTestResult> {
      const keys = row.confluence?.spaces ?? [];
      try {
        const client = clientFor(row);
        const spaces = await client.spaces(keys);
        const counted = [];
        for (const space of spaces) {
          let pages = 0;
          for await (const batch of client.pages(space.id)) pages += batch.length;
          counted.push({ key: space.key, name: space.name, pages });
        }
        return { ok: true, spaces: counted, missing: keys.filter((k) => !spaces.some((s) => s.key === k)) };
      } catch (err) {
        return { ok: false, spaces: [], missing: [], message: describe(err), reason: reasonOf(err) };
      }
    },

    async close(): Promise<void> {
      controller.abort();
      await guard.close();
    },
  };
}

export type Sync = ReturnType<typeof createSync>;
