import { randomUUID } from 'node:crypto';
import {
  type Prompt,
  type PromptCreate,
  PromptLimits,
  type PromptListQuery,
  type PromptRef,
  type PromptScope,
  type PromptUpdate,
  type PromptVersion,
  promptVariables,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { withState } from '../../lib/operations.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import { type AuditMeta, type AuditRecord, changedFields, recordAudit } from '../audit/index.ts';
import {
  commandTaken,
  mayNotEditPrompt,
  mayNotWriteScope,
  promptNotFound,
  promptVersionNotFound,
} from './errors.ts';
import { can } from './policy.ts';
import {
  type CommandOwner,
  PROMPTS_CURSOR_TAG,
  type PromptFields,
  type PromptRow,
  type PromptsStore,
  promptsStore,
} from './store.ts';

/** What every prompts operation shares (docs/ARCHITECTURE.md#service-style). */
export interface PromptsState {
  ctx: AppContext;
  store: PromptsStore;
}

const refOf = (row: Pick<PromptRow, 'scope' | 'userId' | 'domainId' | 'departmentId'>): PromptRef => ({
  scope: row.scope,
  authorId: row.userId,
  domain: row.domainId,
  departmentId: row.departmentId,
});

/** Whose commands a prompt's must differ from. */
const ownerOf = (row: { domainId: string; userId: string } & Pick<PromptFields, 'scope' | 'departmentId'>) =>
  ({
    domainId: row.domainId,
    scope: row.scope,
    owner: row.scope === 'private' ? row.userId : row.scope === 'department' ? (row.departmentId ?? '') : '',
  }) satisfies CommandOwner;

/** Private prompts are the person's own business; department and domain ones are audited. */
const audited = (scope: PromptScope) => scope !== 'private';

/** What the audit log keeps of a prompt. */
const auditedFields = (row: PromptRow) => ({
  title: row.title,
  command: row.command,
  content: row.content,
  scope: row.scope,
  department: row.departmentId,
  version: row.version,
});

/** The authors' display names, asked of the accounts module (never its table). */
async function authorNames(s: PromptsState, domainId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return new Map<string, string>();
  const { users } = await s.ctx.services.organisation.namesIn(domainId, {
    userIds: [...new Set(userIds)],
    departmentIds: [],
  });
  return users;
}

function toDto(caller: UserCaller, row: PromptRow, names: ReadonlyMap<string, string>): Prompt {
  return {
    id: row.id,
    title: row.title,
    command: row.command,
    content: row.content,
    scope: row.scope,
    departmentId: row.departmentId,
    version: row.version,
    variables: promptVariables(row.content),
    // An author who left the domain has no name here any more.
    authorName: names.get(row.userId) ?? '',
    editable: can(caller, 'edit', refOf(row)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function dtoOf(s: PromptsState, caller: UserCaller, row: PromptRow): Promise<Prompt> {
  return toDto(caller, row, await authorNames(s, row.domainId, [row.userId]));
}

/** A prompt the caller sees, in their own domain; anything else is the same 404. */
async function seen(store: PromptsStore, caller: UserCaller, id: string, forUpdate = false) {
  const row = forUpdate
    ? await store.findForUpdate(caller.domain.id, id)
    : await store.find(caller.domain.id, id);
  if (!row || !can(caller, 'see', refOf(row))) throw promptNotFound();
  return row;
}

/** What the caller sees (their private prompts, their department's, their domain's), by scope then title. */
export async function list(
  s: PromptsState,
  caller: UserCaller,
  query: PromptListQuery,
): Promise<Page<Prompt>> {
  const cursors = cursorsFor(s.ctx.config);
  const after = cursors.parse(PROMPTS_CURSOR_TAG, query.cursor, 3);
  const page = await s.store.list(
    { userId: caller.user.id, domainId: caller.domain.id, departmentId: caller.user.departmentId },
    {
      limit: query.limit,
      ...(query.q ? { q: query.q } : {}),
      ...(query.scope ? { scope: query.scope } : {}),
      ...(after ? { after } : {}),
    },
  );
  const names = await authorNames(
    s,
    caller.domain.id,
    page.items.map((row) => row.userId),
  );
  return cursors.page(PROMPTS_CURSOR_TAG, page, (row) => toDto(caller, row, names));
}

export async function get(s: PromptsState, caller: UserCaller, id: string): Promise<Prompt> {
  return dtoOf(s, caller, await seen(s.store, caller, id));
}

/** A new prompt, version 1. A department prompt is for the author's own department. */
export async function create(
  s: PromptsState,
  caller: UserCaller,
  body: PromptCreate,
  meta: AuditMeta,
): Promise<Prompt> {
  const scope = body.scope ?? 'private';
  if (!can(caller, 'create', scope)) throw mayNotWriteScope(scope);
  const values = {
    id: randomUUID(),
    domainId: caller.domain.id,
    userId: caller.user.id,
    scope,
    departmentId: scope === 'department' ? caller.user.departmentId : null,
    title: body.title,
    command: body.command,
    content: body.content,
  };
  const row = await s.ctx.db.transaction(async (tx) => {
    const store = promptsStore(tx);
    const owner = ownerOf(values);
    await store.lockCommands(owner);
    if (await store.commandTaken(owner, values.command)) throw commandTaken(values.command);
    const inserted = await store.insert(values);
    if (audited(scope)) {
      await recordAudit(tx, caller, meta, {
        action: 'prompt.create',
        targetType: 'prompt',
        targetId: inserted.id,
        domainId: inserted.domainId,
        after: auditedFields(inserted),
      });
    }
    return inserted;
  });
  return dtoOf(s, caller, row);
}

/**
 * The prompt with `patch` applied, as its next version (the oldest beyond PromptLimits.versionsKept
 * dropped). Nothing changed: the prompt as it is, no new version. Moving it to another scope needs
 * that scope's right too; a department prompt stays with its department, one moved there goes to
 * the caller's.
 */
export async function update(
  s: PromptsState,
  caller: UserCaller,
  id: string,
  patch: PromptUpdate,
  meta: AuditMeta,
): Promise<Prompt> {
  const row = await s.ctx.db.transaction(async (tx) => {
    const store = promptsStore(tx);
    const current = await seen(store, caller, id, true);
    if (!can(caller, 'edit', refOf(current))) throw mayNotEditPrompt();
    const scope = patch.scope ?? current.scope;
    if (!can(caller, 'move', { prompt: refOf(current), scope })) throw mayNotWriteScope(scope);
    const fields: PromptFields = {
      title: patch.title ?? current.title,
      command: patch.command ?? current.command,
      content: patch.content ?? current.content,
      scope,
      departmentId:
        scope !== 'department'
          ? null
          : current.scope === 'department'
            ? current.departmentId
            : caller.user.departmentId,
    };
    const same = (Object.keys(fields) as Array<keyof PromptFields>).every((k) => fields[k] === current[k]);
    if (same) return current;
    const owner = ownerOf({ domainId: current.domainId, userId: current.userId, ...fields });
    await store.lockCommands(owner);
    if (await store.commandTaken(owner, fields.command, current.id)) throw commandTaken(fields.command);
    const updated = await store.addVersion(current, caller.user.id, fields, PromptLimits.versionsKept);
    if (audited(current.scope) || audited(updated.scope)) {
      const diff = changedFields(auditedFields(current), auditedFields(updated));
      const record: AuditRecord = {
        action: 'prompt.update',
        targetType: 'prompt',
        targetId: updated.id,
        domainId: updated.domainId,
        before: { title: current.title, ...diff.before },
        after: { title: updated.title, ...diff.after },
      };
      await recordAudit(tx, caller, meta, record);
    }
    return updated;
  });
  return dtoOf(s, caller, row);
}

/** Rollback: a new version whose fields are those of `version` (the history is kept). */
export async function restore(
  s: PromptsState,
  caller: UserCaller,
  id: string,
  version: number,
  meta: AuditMeta,
): Promise<Prompt> {
  const current = await seen(s.store, caller, id);
  if (!can(caller, 'edit', refOf(current))) throw mayNotEditPrompt();
  const old = await s.store.version(current.id, version);
  if (!old) throw promptVersionNotFound(version);
  return update(
    s,
    caller,
    id,
    { title: old.title, command: old.command, content: old.content, scope: old.scope },
    meta,
  );
}

/** Removes the prompt and every version of it. */
export async function remove(
  s: PromptsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<void> {
  await s.ctx.db.transaction(async (tx) => {
    const store = promptsStore(tx);
    const current = await seen(store, caller, id, true);
    if (!can(caller, 'edit', refOf(current))) throw mayNotEditPrompt();
    await store.remove(current.domainId, current.id);
    if (audited(current.scope)) {
      await recordAudit(tx, caller, meta, {
        action: 'prompt.delete',
        targetType: 'prompt',
        targetId: current.id,
        domainId: current.domainId,
        before: auditedFields(current),
      });
    }
  });
}

/** The kept versions of a prompt the caller sees, newest first (the current one included). */
export async function versions(s: PromptsState, caller: UserCaller, id: string): Promise<PromptVersion[]> {
  const current = await seen(s.store, caller, id);
  const rows = await s.store.versions(current.id);
  const names = await authorNames(
    s,
    current.domainId,
    rows.map((r) => r.userId),
  );
  return rows.map((r) => ({
    version: r.version,
    title: r.title,
    command: r.command,
    content: r.content,
    scope: r.scope,
    authorName: names.get(r.userId) ?? '',
    createdAt: r.createdAt.toISOString(),
  }));
}

/** A prompt as a person's export writes it: what they wrote, with its kept versions. */
export interface AuthoredPrompt {
  id: string;
  title: string;
  command: string;
  content: string;
  scope: PromptScope;
  departmentId: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
  versions: Array<{ version: number; title: string; command: string; content: string; createdAt: string }>;
}

/** The prompts a person wrote, any scope (docs/ARCHITECTURE.md#export-and-erasure). */
export async function authoredBy(s: PromptsState, userId: string): Promise<AuthoredPrompt[]> {
  return (await s.store.authoredBy(userId)).map(({ prompt: p, versions: vs }) => ({
    id: p.id,
    title: p.title,
    command: p.command,
    content: p.content,
    scope: p.scope,
    departmentId: p.departmentId,
    version: p.version,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    versions: vs.map((v) => ({
      version: v.version,
      title: v.title,
      command: v.command,
      content: v.content,
      createdAt: v.createdAt.toISOString(),
    })),
  }));
}

/**
 * An erased person's prompts (docs/ARCHITECTURE.md#export-and-erasure): private ones are theirs and
 * go; department and domain ones are the organisation's, used by others, and pass to `heir` (the
 * Admin who erased them) instead of vanishing with the user row's cascade.
 */
export function handOver(s: PromptsState, userId: string, heir: string) {
  return s.ctx.db.transaction((tx) => promptsStore(tx).handOver(userId, heir));
}

/** The prompt library (docs/ARCHITECTURE.md#prompt-library), as the routes call it. */
export function promptsService(ctx: AppContext) {
  const state: PromptsState = { ctx, store: promptsStore(ctx.db) };
  return withState(state, { list, get, create, update, restore, remove, versions, authoredBy, handOver });
}

export type PromptsService = ReturnType<typeof promptsService>;
