import type {
  ConfluenceTestResult,
  KnowledgeSource,
  KnowledgeSourceCreate,
  KnowledgeSourceUpdate,
} from '@assistente/contracts';
import type { ConfluenceConfig } from '../../db/schema/index.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { assertFieldUrlAllowed } from '../../lib/ssrf.ts';
import { type AuditMeta, auditedTransaction, changedFields } from '../audit/index.ts';
import { sourceNotFound } from './errors.ts';
import { publishSource, publishSourceRemoved } from './events.ts';
import { newSourceId } from './service-ids.ts';
import { adminDomain, adminSource, type KnowledgeState, sourceOf, startSync } from './state.ts';
import { knowledgeStore, type SourcePatch, type SourceRow, type SourceWithCounts } from './store.ts';

/** `https://site.atlassian.net/wiki/` → `https://site.atlassian.net`: the API paths are added to it. */
function siteOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/wiki$/, '');
  return `${url.origin}${path}`;
}

/** Refuses a base URL that breaks the provider SSRF rule (docs/ARCHITECTURE.md#model-providers), with a message the Admin can act on. */
function checkBaseUrl(s: KnowledgeState, url: string): Promise<void> {
  return assertFieldUrlAllowed('confluence.baseUrl', url, s.ctx.config.PROVIDER_URL_ALLOWLIST);
}

export function toSource(row: SourceWithCounts): KnowledgeSource {
  const { id: sourceId, domainId: domain, kind, displayName, status, documents, chunks } = row;
  return {
    sourceId,
    domain,
    kind,
    displayName,
    status,
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    documents,
    chunks,
    ...(row.indexing > 0 ? { indexing: row.indexing } : {}),
    ...(row.error ? { error: row.error } : {}),
    ...(row.error && row.errorReason ? { errorReason: row.errorReason } : {}),
    ...(row.status === 'syncing' && row.progress ? { progress: row.progress } : {}),
    ...(row.confluence ? { confluence: { ...row.confluence, hasApiToken: Boolean(row.apiTokenEnc) } } : {}),
    createdAt: row.createdAt.toISOString(),
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

export async function list(
  s: KnowledgeState,
  caller: UserCaller,
  domain?: string,
): Promise<KnowledgeSource[]> {
  const domainId = await adminDomain(s, caller, domain);
  return (await s.store.list(domainId)).map(toSource);
}

export async function get(s: KnowledgeState, caller: UserCaller, id: string, domain?: string) {
  return toSource((await adminSource(s, caller, id, domain)).source);
}

export async function create(
  s: KnowledgeState,
  caller: UserCaller,
  body: KnowledgeSourceCreate,
  meta: AuditMeta,
  domain?: string,
): Promise<KnowledgeSource> {
  const domainId = await adminDomain(s, caller, domain);
  const id = newSourceId();
  let confluence: ConfluenceConfig | null = null;
  let apiTokenEnc: string | null = null;
  if (body.kind === 'confluence') {
    await checkBaseUrl(s, body.confluence.baseUrl);
    confluence = {
      baseUrl: siteOf(body.confluence.baseUrl),
      email: body.confluence.email,
      spaces: [...new Set(body.confluence.spaces)],
    };
    apiTokenEnc = s.box.seal(body.confluence.apiToken, id);
  }
  const row = await auditedTransaction(s.ctx.db, caller, meta, knowledgeStore, async (tx) => {
    const inserted = await tx.insert({
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
  publishSource(s.ctx, row);
  // An Admin who connects a site watches its first sync start, not wait for the scheduler's round.
  if (row.kind === 'confluence') {
    await startSync(s, domainId, row.id);
    return toSource(await sourceOf(s, domainId, row.id));
  }
  return toSource({ ...row, documents: 0, chunks: 0, indexing: 0 });
}

export async function update(
  s: KnowledgeState,
  caller: UserCaller,
  id: string,
  body: KnowledgeSourceUpdate,
  meta: AuditMeta,
  domain?: string,
): Promise<KnowledgeSource> {
  const { domainId, source: current } = await adminSource(s, caller, id, domain);
  const patch: SourcePatch = {};
  if (body.displayName !== undefined) patch.displayName = body.displayName;
  if (body.confluence) {
    if (current.kind !== 'confluence' || !current.confluence) {
      throw invalidField('confluence', 'Only a Confluence source has Confluence settings');
    }
    const next = { ...current.confluence };
    if (body.confluence.baseUrl !== undefined) {
      await checkBaseUrl(s, body.confluence.baseUrl);
      next.baseUrl = siteOf(body.confluence.baseUrl);
    }
    if (body.confluence.email !== undefined) next.email = body.confluence.email;
    if (body.confluence.spaces !== undefined) next.spaces = [...new Set(body.confluence.spaces)];
    patch.confluence = next;
    // Empty or absent keeps the stored token: the form never has it to send back.
    if (body.confluence.apiToken?.trim()) patch.apiTokenEnc = s.box.seal(body.confluence.apiToken.trim(), id);
    // Another site, account or set of spaces: sync again soon.
    patch.nextSyncAt = new Date();
  }
  const row = await auditedTransaction(s.ctx.db, caller, meta, knowledgeStore, async (tx) => {
    const updated = await tx.update(domainId, id, patch);
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
}

export async function remove(
  s: KnowledgeState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
  domain?: string,
): Promise<string[]> {
  const { domainId, source: current } = await adminSource(s, caller, id, domain);
  const keys = await s.store.storageKeys(domainId, id);
  await auditedTransaction(s.ctx.db, caller, meta, knowledgeStore, async (tx) => {
    if (!(await tx.remove(domainId, id))) throw sourceNotFound();
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
  publishSourceRemoved(s.ctx, domainId, id);
  return keys;
}

/**
 * "Sync now": a Confluence source syncs at once (in the background; its status and progress
 * tell how it goes); a files source retries its documents that failed.
 */
export async function syncNow(
  s: KnowledgeState,
  caller: UserCaller,
  id: string,
  domain?: string,
): Promise<KnowledgeSource> {
  const { domainId, source: row } = await adminSource(s, caller, id, domain);
  if (row.status !== 'syncing') {
    await s.store.update(domainId, id, { nextSyncAt: row.kind === 'confluence' ? new Date() : null });
    await startSync(s, domainId, id);
  }
  return toSource(await sourceOf(s, domainId, id));
}

/** Tries Confluence settings before they are saved: which spaces, how many pages each. */
export async function testConnection(
  s: KnowledgeState,
  caller: UserCaller,
  body: { baseUrl: string; email: string; apiToken: string; spaces: string[] },
  domain?: string,
): Promise<ConfluenceTestResult> {
  await adminDomain(s, caller, domain);
  await checkBaseUrl(s, body.baseUrl);
  const now = new Date();
  return s.sync.test({
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
    apiTokenEnc: s.box.seal(body.apiToken, 'test'),
    createdAt: now,
    updatedAt: now,
  });
}
