import { type KnowledgeDocument, KnowledgeUploadTypes } from '@assistente/contracts';
import type { UserCaller, VisitorCaller } from '../../lib/caller.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import { type AuditMeta, auditedTransaction, recordAudit } from '../audit/index.ts';
import { type ReadUpload, type StoredObject, storeUpload } from '../storage/index.ts';
import { documentNotFound, notAFilesSource } from './errors.ts';
import { publishDocument, publishDocumentRemoved } from './events.ts';
import { can } from './policy.ts';
import { newDocumentId } from './service-ids.ts';
import { adminDomain, adminSource, type KnowledgeState } from './state.ts';
import { type DocumentRow, knowledgeStore, type SourceRow } from './store.ts';

const DOCUMENTS_CURSOR_TAG = 'knowledge-documents:createdAt:asc';

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

function toDocument(row: DocumentRow): KnowledgeDocument {
  const { id: documentId, sourceId, title, url, status, contentType, size, chunks } = row;
  return {
    documentId,
    sourceId,
    title,
    url,
    status,
    contentType,
    size,
    chunks,
    ...(row.error ? { error: row.error } : {}),
    ...(row.error && row.errorReason ? { errorReason: row.errorReason } : {}),
    updatedAt: row.updatedAt.toISOString(),
  };
}

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

/** Whether the caller may use some santito of their domain that lists the source. */
async function usesSource(s: KnowledgeState, caller: UserCaller, sourceId: string): Promise<boolean> {
  const { santitos } = s.ctx.services;
  for (const agentId of await santitos.santitosListing(caller.domain.id, sourceId)) {
    if (await santitos.findUsable(caller, agentId)) return true;
  }
  return false;
}

export async function documents(
  s: KnowledgeState,
  caller: UserCaller,
  id: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
  domain?: string,
): Promise<Page<KnowledgeDocument>> {
  const { domainId } = await adminSource(s, caller, id, domain);
  const cursors = cursorsFor(s.ctx.config);
  const after = cursors.parse(DOCUMENTS_CURSOR_TAG, query.cursor, 2);
  const page = await s.store.documents(domainId, id, query.limit ?? 50, after);
  return cursors.page(DOCUMENTS_CURSOR_TAG, page, toDocument);
}

/**
 * Stores an uploaded document of a files source (within the domain's quota) and indexes it in
 * the background; its status tells how far that got.
 */
export async function upload(
  s: KnowledgeState,
  caller: UserCaller,
  id: string,
  file: ReadUpload,
  meta: AuditMeta,
  domain?: string,
): Promise<KnowledgeDocument> {
  const { domainId, source } = await adminSource(s, caller, id, domain);
  if (source.kind !== 'files') throw notAFilesSource();
  const documentId = newDocumentId();
  const title = file.fileName.replace(/\.[A-Za-z0-9]{1,10}$/, '').trim() || file.fileName || 'Document';
  const row = await storeUpload(s.ctx, {
    bucket: 'knowledge',
    domainId,
    file,
    maxBytes: s.ctx.config.UPLOAD_MAX_BYTES,
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
          after: { documentId, title: inserted.title, contentType: stored.contentType, size: stored.size },
        }),
      });
      return inserted;
    },
  });
  publishDocument(s.ctx, row);
  s.ingest.enqueue(row.id);
  return toDocument(row);
}

/**
 * An uploaded document's bytes and file name, for a download: the domain's Admins, whoever may
 * use a santito that lists the source, and an embed's visitors when the embed's santito lists
 * it (a citation's link must open for them all).
 */
export async function file(
  s: KnowledgeState,
  caller: UserCaller | VisitorCaller,
  id: string,
  documentId: string,
  domain?: string,
): Promise<{ object: StoredObject; fileName: string }> {
  let domainId = caller.domain.id;
  if (caller.kind === 'visitor') {
    const agentId = caller.virtualAccount.agentId;
    if (!agentId || !(await s.ctx.services.santitos.santitoLists(domainId, agentId, id))) {
      throw documentNotFound();
    }
  } else {
    if (can(caller, 'manage', caller.domain.id)) domainId = await adminDomain(s, caller, domain);
    if (!can(caller, 'manage', domainId) && !(await usesSource(s, caller, id))) {
      throw documentNotFound();
    }
  }
  const doc = await s.store.findDocument(domainId, id, documentId);
  if (!doc?.storageKey) throw documentNotFound();
  const object = await s.ctx.services.storage.bucket('knowledge').get(doc.storageKey);
  return { object, fileName: `${doc.title}${extensionOf(doc.contentType)}` };
}

/** Removes one document and its chunks; answers the stored file's key for the caller to delete. */
export async function removeDocument(
  s: KnowledgeState,
  caller: UserCaller,
  id: string,
  documentId: string,
  meta: AuditMeta,
  domain?: string,
): Promise<string | null> {
  const { domainId, source } = await adminSource(s, caller, id, domain);
  const doc = await s.store.findDocument(domainId, id, documentId);
  if (!doc) throw documentNotFound();
  await auditedTransaction(s.ctx.db, caller, meta, knowledgeStore, async (tx) => {
    if (!(await tx.removeDocument(domainId, documentId))) throw documentNotFound();
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
  publishDocumentRemoved(s.ctx, doc);
  return doc.storageKey;
}
