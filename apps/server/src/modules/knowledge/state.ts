import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { sourceNotFound } from './errors.ts';
import { createIngest, type Ingest } from './ingest.ts';
import { authorize } from './policy.ts';
import { type KnowledgeStore, knowledgeStore, type SourceRow, type SourceWithCounts } from './store.ts';
import { createSync, type Sync } from './sync.ts';

/** What every knowledge operation shares (docs/ARCHITECTURE.md#service-style): built once per app. */
export interface KnowledgeState {
  ctx: AppContext;
  store: KnowledgeStore;
  box: SecretBox;
  ingest: Ingest;
  sync: Sync;
  /** Background syncs started by an Admin, awaited on close. */
  syncs: Set<Promise<unknown>>;
}

export function createKnowledgeState(ctx: AppContext): KnowledgeState {
  const box = secretBoxFor(ctx.config);
  const ingest = createIngest(ctx);
  const state: KnowledgeState = {
    ctx,
    store: knowledgeStore(ctx.db),
    box,
    ingest,
    sync: createSync(ctx, ingest, (row) => openToken(state, row)),
    syncs: new Set(),
  };
  return state;
}

/** The domain an Admin acts on: their own, or any for a SuperAdmin (`?domain=`). */
export async function adminDomain(
  s: KnowledgeState,
  caller: UserCaller,
  requested?: string,
): Promise<string> {
  authorize(caller, 'manage', caller.domain.id, 'Only Admins manage knowledge sources');
  return existingActingDomain(s.ctx.db, caller, requested);
}

export async function sourceOf(s: KnowledgeState, domainId: string, id: string): Promise<SourceWithCounts> {
  const row = await s.store.findWithCounts(domainId, id);
  if (!row) throw sourceNotFound();
  return row;
}

/** The Admin's acting domain and its source `id`: where most operations on one source start. */
export async function adminSource(
  s: KnowledgeState,
  caller: UserCaller,
  id: string,
  domain?: string,
): Promise<{ domainId: string; source: SourceWithCounts }> {
  const domainId = await adminDomain(s, caller, domain);
  return { domainId, source: await sourceOf(s, domainId, id) };
}

export function openToken(s: KnowledgeState, row: SourceRow): string | null {
  if (!row.apiTokenEnc) return null;
  try {
    return s.box.open(row.apiTokenEnc, row.id);
  } catch (err) {
    s.ctx.log.error(
      { err, source: row.id },
      'cannot decrypt a Confluence API token (was SECRET_KEY changed?)',
    );
    return null;
  }
}

/**
 * Claims a source and syncs it in the background. Claimed before answering: the answer, and any
 * read after it, already says `syncing` (a read racing the claim saw the source idle, as if the
 * sync had already ended).
 */
export async function startSync(s: KnowledgeState, domainId: string, id: string): Promise<void> {
  const claimed = await s.sync.claim(domainId, id);
  if (!claimed) return;
  const run = s.sync
    .runClaimed(claimed)
    .catch((err: unknown) => s.ctx.log.error({ err, source: id }, 'knowledge sync failed'))
    .finally(() => s.syncs.delete(run));
  s.syncs.add(run);
}

export async function close(s: KnowledgeState): Promise<void> {
  await s.sync.close();
  await Promise.allSettled([...s.syncs]);
  await s.ingest.close();
}
