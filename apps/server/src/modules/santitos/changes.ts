import { randomUUID } from 'node:crypto';
import type { AuditAction, Santito, SantitoCreateSchema, SantitoUpdate } from '@assistente/contracts';
import type { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { type AuditMeta, type AuditRecord, auditedTransaction, changedFields } from '../audit/index.ts';
import { sourceRefs } from '../knowledge/index.ts';
import { dropImage } from './avatars.ts';
import { hasAvatarImage, type SantitoRow, toSantito } from './dto.ts';
import { santitoNotFound } from './errors.ts';
import { authorize } from './policy.ts';
import { assertPremium, editable, type SantitosState } from './state.ts';
import type { SantitoPatch } from './store.ts';

/** Creating, changing and deleting santitos: Editors create, authors and Admins edit. */

type SantitoCreateBody = z.output<typeof SantitoCreateSchema>;

type AuditedSantito = Pick<
  SantitoRow,
  | 'name'
  | 'description'
  | 'instructions'
  | 'model'
  | 'starters'
  | 'knowledge'
  | 'tools'
  | 'maxSteps'
  | 'visibility'
  | 'departmentId'
>;

/**
 * A santito's model must be one a provider of the domain offers, as the default model must, and
 * one its author may use (docs/ARCHITECTURE.md#model-access).
 */
async function checkModel({ ctx }: SantitosState, caller: UserCaller, model: string): Promise<void> {
  await ctx.services.providers.assertUsable(caller, model);
}

/** Knowledge sources a santito lists must be its domain's (docs/ARCHITECTURE.md#knowledge): another domain's id is refused. */
async function checkKnowledge(
  { ctx }: SantitosState,
  caller: UserCaller,
  knowledge: ReadonlyArray<{ kind: string; ref: string }>,
) {
  const refs = sourceRefs(knowledge);
  if (refs.length === 0) return;
  const found = await ctx.services.knowledge.sourceNames(caller.domain.id, refs);
  if (refs.some((ref) => !found.has(ref))) {
    throw invalidField('knowledge', 'No such knowledge source in your organisation');
  }
}

/** The servers a santito's tools name must be its domain's (docs/ARCHITECTURE.md#the-tool-loop). */
async function checkTools({ ctx }: SantitosState, caller: UserCaller, tools: readonly string[]) {
  if (tools.length === 0) return;
  const unknown = await ctx.services.tools.unknownRefs(caller, tools);
  if (unknown.length > 0) throw invalidField('tools', `No such tool in your organisation: ${unknown[0]}`);
}

async function checkDepartment(
  { ctx }: SantitosState,
  caller: UserCaller,
  departmentId: string,
): Promise<void> {
  if ((await ctx.services.organisation.departmentName(caller, departmentId)) === undefined) {
    throw invalidField('departmentId', 'No such department in your organisation');
  }
}

/**
 * What the audit log keeps of a santito: its instructions (the system prompt of every chat with
 * it) and the rest of what steers an answer, with sources and department by name, as a reader
 * knows them. Read before the change's transaction opens, so it takes no second connection.
 */
async function audited(
  { ctx }: SantitosState,
  caller: UserCaller,
  santito: AuditedSantito,
): Promise<Record<string, unknown>> {
  const refs = sourceRefs(santito.knowledge);
  const sources = refs.length > 0 ? await ctx.services.knowledge.sourceNames(caller.domain.id, refs) : null;
  const department = santito.departmentId
    ? await ctx.services.organisation.departmentName(caller, santito.departmentId)
    : null;
  return {
    displayName: santito.name,
    description: santito.description,
    instructions: santito.instructions,
    model: santito.model,
    starters: santito.starters,
    knowledge: santito.knowledge.map((k) => sources?.get(k.ref) ?? (k.title || k.ref)),
    tools: santito.tools,
    maxSteps: santito.maxSteps,
    visibility: santito.visibility,
    department: department ?? null,
  };
}

/**
 * Runs a change of santito `id` and writes its audit entry in one transaction: both happen, or
 * neither. A santito gone meanwhile (`run` finds none) is a 404 and logs nothing.
 */
function change(
  { ctx }: SantitosState,
  caller: UserCaller,
  meta: AuditMeta,
  action: Extract<AuditAction, `santito.${string}`>,
  id: string,
  logged: Pick<AuditRecord, 'before' | 'after'>,
  run: (tx: Tx) => Promise<SantitoRow | undefined>,
): Promise<SantitoRow> {
  return auditedTransaction(
    ctx.db,
    caller,
    meta,
    (tx) => tx,
    async (tx) => {
      const row = await run(tx);
      if (!row) throw santitoNotFound();
      return {
        result: row,
        audit: { action, targetType: 'santito', targetId: id, domainId: row.domainId, ...logged },
      };
    },
  );
}

export async function create(
  state: SantitosState,
  caller: UserCaller,
  body: SantitoCreateBody,
  meta: AuditMeta,
): Promise<Santito> {
  const { store } = state;
  assertPremium(caller);
  authorize(caller, 'create', null, 'Only Editors and Admins can create santitos');
  const departmentId = body.visibility === 'department' ? (body.departmentId ?? null) : null;
  if (departmentId) await checkDepartment(state, caller, departmentId);
  if (body.model) await checkModel(state, caller, body.model);
  await checkKnowledge(state, caller, body.knowledge);
  await checkTools(state, caller, body.tools);
  const now = new Date();
  const values = {
    id: randomUUID(),
    name: body.name,
    description: body.description,
    avatar: body.avatar ?? null,
    instructions: body.instructions,
    model: body.model ?? null,
    starters: body.starters,
    knowledge: body.knowledge,
    tools: body.tools,
    maxSteps: body.maxSteps,
    visibility: body.visibility,
    departmentId,
    createdAt: now,
    updatedAt: now,
  };
  const after = await audited(state, caller, values);
  const row = await change(state, caller, meta, 'santito.create', values.id, { after }, (tx) =>
    store.insert(caller, values, tx),
  );
  return toSantito(row, caller);
}

export async function update(
  state: SantitosState,
  caller: UserCaller,
  id: string,
  body: SantitoUpdate,
  meta: AuditMeta,
): Promise<Santito> {
  const { store } = state;
  const current = await editable(state, caller, id);
  const patch: SantitoPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.description !== undefined) patch.description = body.description;
  if (body.instructions !== undefined) patch.instructions = body.instructions;
  if (body.model !== undefined) {
    // An unchanged model is not checked again: a santito whose provider was removed stays editable.
    if (body.model && body.model !== current.model) await checkModel(state, caller, body.model);
    patch.model = body.model;
  }
  if (body.starters !== undefined) patch.starters = body.starters;
  if (body.knowledge !== undefined) {
    await checkKnowledge(state, caller, body.knowledge);
    patch.knowledge = body.knowledge;
  }
  if (body.tools !== undefined) {
    await checkTools(state, caller, body.tools);
    patch.tools = body.tools;
  }
  if (body.maxSteps !== undefined) patch.maxSteps = body.maxSteps;
  if (body.avatar !== undefined) {
    // An emoji (or null) replaces an uploaded image.
    patch.avatar = body.avatar;
    patch.avatarSize = null;
    patch.avatarContentType = null;
  }
  const visibility = body.visibility ?? current.visibility;
  const departmentId =
    visibility === 'domain'
      ? null
      : body.departmentId !== undefined
        ? body.departmentId
        : current.departmentId;
  if (visibility === 'department') {
    if (!departmentId)
      throw invalidField('departmentId', 'departmentId is required when visibility is department');
    if (departmentId !== current.departmentId) await checkDepartment(state, caller, departmentId);
  }
  patch.visibility = visibility;
  patch.departmentId = departmentId;
  const diff = changedFields(
    await audited(state, caller, current),
    await audited(state, caller, { ...current, ...patch }),
  );
  // The name on both sides names the santito in the log even when it did not change.
  const names = {
    before: { displayName: current.name },
    after: { displayName: patch.name ?? current.name },
  };
  const logged = {
    before: { ...names.before, ...diff.before },
    after: { ...names.after, ...diff.after },
  };
  const row = await change(state, caller, meta, 'santito.update', id, logged, (tx) =>
    store.update(caller, id, patch, tx),
  );
  if (body.avatar !== undefined && hasAvatarImage(current) && current.avatar)
    await dropImage(state, current.avatar);
  return toSantito(row, caller);
}

export async function remove(
  state: SantitosState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<void> {
  const { store } = state;
  const current = await editable(state, caller, id);
  const before = await audited(state, caller, current);
  const row = await change(state, caller, meta, 'santito.delete', id, { before }, (tx) =>
    store.remove(caller, id, tx),
  );
  if (hasAvatarImage(row) && row.avatar) await dropImage(state, row.avatar);
}
