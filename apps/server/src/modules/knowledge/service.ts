import {
  type ConfluenceTestResult,
  type KnowledgeDocument,
  type KnowledgeSource,
  type KnowledgeSourceChoice,
  type KnowledgeSourceCreate,
  type KnowledgeSourceUpdate,
  KnowledgeUploadTypes,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { ConfluenceConfig } from '../../db/schema/index.ts';
import type { UserCaller, VisitorCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { assertFieldUrlAllowed } from '../../lib/ssrf.ts';
import { existingActingDomain } from '../accounts/index.ts';
import {
  type AuditMeta,
  type AuditRecord,
  auditedTransaction,
  changedFields,
  recordAudit,
} from '../audit/index.ts';
import { type ReadUpload, type StoredObject, storeUpload } from '../storage/index.ts';
import { documentNotFound, notAFilesSource, sourceNotFound } from './errors.ts';
import { publishDocument, publishDocumentRemoved, publishSource, publishSourceRemoved } from './events.ts';
import { createIngest } from './ingest.ts';
import { authorize, can } from './policy.ts';
import { newDocumentId, newSourceId } from './service-ids.ts';
import {
  type DocumentRow,
  type KnowledgeStore,
  knowledgeStore,
  type SourcePatch,
  type SourceRow,
  type SourceWithCounts,
} from './store.ts';
import { createSync } from './sync.ts';

const DOCUMENTS_CURSOR_TAG = 'knowledge-documents:createdAt:asc';

export { newDocumentId, newSourceId };

/** `https://site.atlassian.net/wiki/` → `https://site.atlassian.net`: the API paths are added to it. */
function siteOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/wiki$/, '');
  return `${url.origin}${path}`;
}

/** Where a citation of an uploaded document links: its download (relative to the app). */
const documentUrl = (sourceId: string, documentId: string) =>
  `/api/v1/integration/knowledge/${sourceId}/documents/${documentId}/file`;

const EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'text/markdown': '.md',
  'text/html': '.html',
  'text/plain': '.txt',
};
const extensionOf = (type: string | null) => (type ? (EXTENSIONS[type] ?? '') : '');

function toSource(row: SourceWithCounts): KnowledgeSource {
  return {
    sourceId: row.id,
    domain: row.domainId,
    kind: row.kind,
    displayName: row.displayName,
    status: row.status,
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    documents: row.documents,
    chunks: row.chunks,
    ...(row.indexing > 0 ? { indexing: row.indexing } : {}),
    ...(row.error ? { error: row.error } : {}),
    ...(row.error && row.errorReason ? { errorReason: row.errorReason } : {}),
    ...(row.status === 'syncing' && row.progress ? { progress: row.progress } : {}),
    ...(row.confluence ? { confluence: { ...row.confluence, hasApiToken: Boolean(row.apiTokenEnc) } } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toDocument(row: DocumentRow): KnowledgeDocument {
  return {
    documentId: row.id,
    sourceId: row.sourceId,
    title: row.title,
    url: row.url,
    status: row.status,
    contentType: row.contentType,
    size: row.size,
    chunks: row.chunks,
    ...(row.error ? { error: row.error } : {}),
    ...(row.error && row.errorReason ? { errorReason: row.errorReason } : {}),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a source: never the token, only whether there is one. */
const audited = (row: SourceRow) => ({
  displayName: row.displayName,
  kind: row.kind,
  ...(row.confluence
    ? { baseUrl: row.confluence.baseUrl, email: row.confluence.email, spaces: row.confluence.spaces }
    : {}),
  ...(row.kind === 'confluence' ? { keySet: Boolean(row.apiTokenEnc) } : {}),
});

/**
 * A document's audit entry names its source on both sides, as a source's own change does: the log
 * shows the name instead of the source's id, and the unchanged name is not listed as a change.
 */
function documentAudit(
  source: SourceRow,
  change: { before?: Record<string, unknown>; after?: Record<string, unknown> },
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const named = { displayName: source.displayName };
  return { before: { ...named, ...change.before }, after: { ...named, ...change.after } };
}

/** The knowledge sources service (docs/ARCHITECTURE.md#knowledge): Admin API over a domain's sources and documents. */
export function knowledgeService(
  ctx: AppContext,
  store: KnowledgeStore = knowledgeStore(ctx.db),
  box: SecretBox = secretBoxFor(ctx.config),
) {
  const { config } = ctx;
  const ingest = createIngest(ctx);
  const syncs = new Set<Promise<unknown>>();

  /** The domain an Admin acts on: their own, or any for a SuperAdmin (`?domain=`). */
  async function adminDomain(caller: UserCaller, requested?: string): Promise<string> {
    authorize(caller, 'manage', caller.domain.id, 'Only Admins manage knowledge sources');
    return existingActingDomain(ctx.db, caller, requested);
  }

  /** Refuses a base URL that breaks the provider SSRF rule (docs/ARCHITECTURE.md#model-providers), with a message the Admin can act on. */
  function checkBaseUrl(url: string): Promise<void> {
    return assertFieldUrlAllowed('confluence.baseUrl', url, config.PROVIDER_URL_ALLOWLIST);
  }

  /** Runs a change and writes its audit entry in one transaction: both happen, or neither. */
  function inTransaction<T>(
    caller: UserCaller,
    meta: AuditMeta,
    run: (s: KnowledgeStore) => Promise<{ result: T; audit: AuditRecord }>,
  ): Promise<T> {
    return auditedTransaction(ctx.db, caller, meta, knowledgeStore, run);
  }

  /** Whether the caller may use some santito of their domain that lists the source. */
  async function usesSource(caller: UserCaller, sourceId: string): Promise<boolean> {
    for (const agentId of await store.santitosListing(caller.domain.id, sourceId)) {
      if (await ctx.services.santitos.findUsable(caller, agentId)) return true;
    }
    return false;
  }

  async function sourceOf(domainId: string, id: string): Promise<SourceWithCounts> {
    const row = await store.findWithCounts(domainId, id);
    if (!row) throw sourceNotFound();
    return row;
  }

  function openToken(row: SourceRow): string | null {
    if (!row.apiTokenEnc) return null;
    try {
      return box.open(row.apiTokenEnc, row.id);
    } catch (err) {
      ctx.log.error(
        { err, source: row.id },
        'cannot decrypt a Confluence API token (was SECRET_KEY changed?)',
      );
      return null;
    }
  }
  const sync = createSync(ctx, ingest, openToken);

  /**
   * Claims a source and syncs it in the background. Claimed before answering: the answer, and any
   * read after it, already says `syncing` (a read racing the claim saw the source idle, as if the
   * sync had already ended).
   */
  async function startSync(domainId: string, id: string): Promise<void> {
    const claimed = await sync.claim(domainId, id);
    if (!claimed) return;
    const run = sync
      .runClaimed(claimed)
      .catch((err: unknown) => ctx.log.error({ err, source: id }, 'knowledge sync failed'))
      .finally(() => syncs.delete(run));
    syncs.add(run);
  }

  return {
    adminDomain,
    ingest,
    sync,
    openToken,

    /**
     * "Sync now": a Confluence source syncs at once (in the background; its status and progress
     * tell how it goes); a files source retries its documents that failed.
     */
    async syncNow(caller: UserCaller, id: string, domain?: string): Promise<KnowledgeSource> {
      const domainId = await adminDomain(caller, domain);
      const row = await sourceOf(domainId, id);
      if (row.status !== 'syncing') {
        await store.update(domainId, id, { nextSyncAt: row.kind === 'confluence' ? new Date() : null });
        await startSync(domainId, id);
      }
      return toSource(await sourceOf(domainId, id));
    },

    /** Tries Confluence settings before they are saved: which spaces, how many pages each. */
    async testConnection(
      caller: UserCaller,
      body: { baseUrl: string; email: string; apiToken: string; spaces: string[] },
      domain?: string,
    ): Promise<ConfluenceTestResult> {
      await adminDomain(caller, domain);
      await checkBaseUrl(body.baseUrl);
      const now = new Date();
      return sync.test({
        id: 'test',
        domainId: caller.domain.id,
        kind: 'confluence',
        displayName: '',
        status: 'idle',
        error: null,
        errorReason: null,
        progress: null,
        lastSyncAt: null,
        nextSyncAt: null,
        confluence: { baseUrl: siteOf(body.baseUrl), email: body.email, spaces: [...new Set(body.spaces)] },
        apiTokenEnc: box.seal(body.apiToken, 'test'),
        createdAt: now,
        updatedAt: now,
      });
    },

    async list(caller: UserCaller, domain?: string): Promise<KnowledgeSource[]> {
      const domainId = await adminDomain(caller, domain);
      return (await store.list(domainId)).map(toSource);
    },

    async get(caller: UserCaller, id: string, domain?: string): Promise<KnowledgeSource> {
      const domainId = await adminDomain(caller, domain);
      return toSource(await sourceOf(domainId, id));
    },

    async create(
      caller: UserCaller,
      body: KnowledgeSourceCreate,
      meta: AuditMeta,
      domain?: string,
    ): Promise<KnowledgeSource> {
      const domainId = await adminDomain(caller, domain);
      const id = newSourceId();
      let confluence: ConfluenceConfig | null = null;
      let apiTokenEnc: string | null = null;
      if (body.kind === 'confluence') {
        await checkBaseUrl(body.confluence.baseUrl);
        confluence = {
          baseUrl: siteOf(body.confluence.baseUrl),
          email: body.confluence.email,
          spaces: [...new Set(body.confluence.spaces)],
        };
        apiTokenEnc = box.seal(body.confluence.apiToken, id);
      }
      const row = await inTransaction(caller, meta, async (s) => {
        const inserted = await s.insert({
          id,
          domainId,
          kind: body.kind,
          displayName: body.displayName,
          confluence,
          apiTokenEnc,
          // A new Confluence source syncs at once; a files source waits for uploads.
          nextSyncAt: body.kind === 'confluence' ? new Date() : null,
        });
        return {
          result: inserted,
          audit: {
            action: 'knowledge.create',
            targetType: 'knowledge',
            targetId: id,
            domainId,
            after: audited(inserted),
          },
        };
      });
      publishSource(ctx, row);
      // An Admin who connects a site watches its first sync start, not wait for the scheduler's round.
      if (row.kind === 'confluence') {
        await startSync(domainId, row.id);
        return toSource(await sourceOf(domainId, row.id));
      }
      return toSource({ ...row, documents: 0, chunks: 0, indexing: 0 });
    },

    async update(
      caller: UserCaller,
      id: string,
      body: KnowledgeSourceUpdate,
      meta: AuditMeta,
      domain?: string,
    ): Promise<KnowledgeSource> {
      const domainId = await adminDomain(caller, domain);
      const current = await sourceOf(domainId, id);
      const patch: SourcePatch = {};
      if (body.displayName !== undefined) patch.displayName = body.displayName;
      if (body.confluence) {
        if (current.kind !== 'confluence' || !current.confluence) {
          throw invalidField('confluence', 'Only a Confluence source has Confluence settings');
        }
        const next = { ...current.confluence };
        if (body.confluence.baseUrl !== undefined) {
          await checkBaseUrl(body.confluence.baseUrl);
          next.baseUrl = siteOf(body.confluence.baseUrl);
        }
        if (body.confluence.email !== undefined) next.email = body.confluence.email;
        if (body.confluence.spaces !== undefined) next.spaces = [...new Set(body.confluence.spaces)];
        patch.confluence = next;
        // Empty or absent keeps the stored token: the form never has it to send back.
        if (body.confluence.apiToken?.trim())
          patch.apiTokenEnc = box.seal(body.confluence.apiToken.trim(), id);
        // Another site, account or set of spaces: sync again soon.
        patch.nextSyncAt = new Date();
      }
      const row = await inTransaction(caller, meta, async (s) => {
        const updated = await s.update(domainId, id, patch);
        if (!updated) throw sourceNotFound();
        const diff = changedFields(audited(current), audited(updated));
        // Named like the providers' flag: the audit log drops any field that looks like a token.
        if (patch.apiTokenEnc) diff.after.keyReplaced = true;
        return {
          result: updated,
          audit: {
            action: 'knowledge.update',
            targetType: 'knowledge',
            targetId: id,
            domainId,
            before: { displayName: current.displayName, ...diff.before },
            after: { displayName: updated.displayName, ...diff.after },
          },
        };
      });
      return toSource({
        ...row,
        documents: current.documents,
        chunks: current.chunks,
        indexing: current.indexing,
      });
    },

    async remove(caller: UserCaller, id: string, meta: AuditMeta, domain?: string): Promise<string[]> {
      const domainId = await adminDomain(caller, domain);
      const current = await sourceOf(domainId, id);
      const keys = await store.storageKeys(domainId, id);
      await inTransaction(caller, meta, async (s) => {
        if (!(await s.remove(domainId, id))) throw sourceNotFound();
        return {
          result: undefined,
          audit: {
            action: 'knowledge.delete',
            targetType: 'knowledge',
            targetId: id,
            domainId,
            before: { ...audited(current), documents: current.documents },
          },
        };
      });
      publishSourceRemoved(ctx, domainId, id);
      return keys;
    },

    async documents(
      caller: UserCaller,
      id: string,
      query: { limit?: number | undefined; cursor?: string | undefined },
      domain?: string,
    ): Promise<Page<KnowledgeDocument>> {
      const domainId = await adminDomain(caller, domain);
      await sourceOf(domainId, id);
      const cursors = cursorsFor(config);
      const after = cursors.parse(DOCUMENTS_CURSOR_TAG, query.cursor, 2);
      const page = await store.documents(domainId, id, query.limit ?? 50, after);
      return cursors.page(DOCUMENTS_CURSOR_TAG, page, toDocument);
    },

    /**
     * Stores an uploaded document of a files source (within the domain's quota) and indexes it in
     * the background; its status tells how far that got.
     */
    async upload(
      caller: UserCaller,
      id: string,
      file: ReadUpload,
      meta: AuditMeta,
      domain?: string,
    ): Promise<KnowledgeDocument> {
      const domainId = await adminDomain(caller, domain);
      const source = await sourceOf(domainId, id);
      if (source.kind !== 'files') throw notAFilesSource();
      const documentId = newDocumentId();
      const title = file.fileName.replace(/\.[A-Za-z0-9]{1,10}$/, '').trim() || file.fileName || 'Document';
      const row = await storeUpload(ctx, {
        bucket: 'knowledge',
        domainId,
        file,
        maxBytes: config.UPLOAD_MAX_BYTES,
        types: KnowledgeUploadTypes,
        // The document and its audit entry in the quota's transaction: both are kept, or neither.
        record: async (tx, stored) => {
          const inserted = await knowledgeStore(tx).insertDocument({
            id: documentId,
            domainId,
            sourceId: id,
            title: title.slice(0, 300),
            url: documentUrl(id, documentId),
            status: 'pending',
            contentType: stored.contentType,
            size: stored.size,
            storageKey: stored.key,
          });
          await recordAudit(tx, caller, meta, {
            action: 'knowledge.document.upload',
            targetType: 'knowledge',
            targetId: id,
            domainId,
            ...documentAudit(source, {
              after: {
                documentId,
                title: inserted.title,
                contentType: stored.contentType,
                size: stored.size,
              },
            }),
          });
          return inserted;
        },
      });
      publishDocument(ctx, row);
      ingest.enqueue(row.id);
      return toDocument(row);
    },

    /** The names of those of `ids` that are sources of the domain, by id. */
    async sourceNames(domainId: string, ids: string[]): Promise<Map<string, string>> {
      return new Map((await store.existing(domainId, ids)).map((r) => [r.id, r.displayName]));
    },

    /** The caller's domain's sources, for the santito editor (Editors and above). */
    async choices(caller: UserCaller): Promise<KnowledgeSourceChoice[]> {
      authorize(caller, 'attach', null, 'Only Editors and Admins attach knowledge to santitos');
      return (await store.list(caller.domain.id)).map((r) => ({
        sourceId: r.id,
        kind: r.kind,
        displayName: r.displayName,
        documents: r.documents,
      }));
    },

    /**
     * An uploaded document's bytes and file name, for a download: the domain's Admins, whoever may
     * use a santito that lists the source, and an embed's visitors when the embed's santito lists
     * it (a citation's link must open for them all).
     */
    async file(
      caller: UserCaller | VisitorCaller,
      id: string,
      documentId: string,
      domain?: string,
    ): Promise<{ object: StoredObject; fileName: string }> {
      let domainId = caller.domain.id;
      if (caller.kind === 'visitor') {
        const agentId = caller.virtualAccount.agentId;
        if (!agentId || !(await store.santitoLists(domainId, agentId, id))) {
          throw documentNotFound();
        }
      } else {
        if (can(caller, 'manage', caller.domain.id)) domainId = await adminDomain(caller, domain);
        if (!can(caller, 'manage', domainId) && !(await usesSource(caller, id))) {
          throw documentNotFound();
        }
      }
      const doc = await store.findDocument(domainId, id, documentId);
      if (!doc?.storageKey) throw documentNotFound();
      const object = await ctx.services.storage.bucket('knowledge').get(doc.storageKey);
      return { object, fileName: `${doc.title}${extensionOf(doc.contentType)}` };
    },

    async close(): Promise<void> {
      await sync.close();
      await Promise.allSettled([...syncs]);
      await ingest.close();
    },

    /** Removes one document and its chunks; answers the stored file's key for the caller to delete. */
    async removeDocument(
      caller: UserCaller,
      id: string,
      documentId: string,
      meta: AuditMeta,
      domain?: string,
    ): Promise<string | null> {
      const domainId = await adminDomain(caller, domain);
      const source = await sourceOf(domainId, id);
      const doc = await store.findDocument(domainId, id, documentId);
      if (!doc) throw documentNotFound();
      await inTransaction(caller, meta, async (s) => {
        if (!(await s.removeDocument(domainId, documentId))) throw documentNotFound();
        return {
          result: undefined,
          audit: {
            action: 'knowledge.document.delete',
            targetType: 'knowledge',
            targetId: id,
            domainId,
            ...documentAudit(source, { before: { documentId, title: doc.title } }),
          },
        };
      });
      publishDocumentRemoved(ctx, doc);
      return doc.storageKey;
    },
  };
}

export type KnowledgeService = ReturnType<typeof knowledgeService>;
