import { randomUUID } from 'node:crypto';
import {
  type AuditAction,
  AvatarTypes,
  type Santito,
  type SantitoCreateSchema,
  SantitoLimits,
  type SantitoListQuery,
  type SantitoUpdate,
} from '@assistente/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import type { Caller, UserCaller } from '../../lib/caller.ts';
import { forbidden, invalidField } from '../../lib/errors.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import type { AccountCaller } from '../../lib/policy.ts';
import { type AuditMeta, type AuditRecord, auditedTransaction, changedFields } from '../audit/index.ts';
import { sourceRefs } from '../knowledge/index.ts';
import {
  assertRoomLeft,
  deleteStored,
  objectNotFound,
  type ReadUpload,
  type StoredObject,
  storeUpload,
} from '../storage/index.ts';
import { hasAvatarImage, type SantitoRow, toSantito } from './dto.ts';
import { santitoNotFound } from './errors.ts';
import { authorize, can } from './policy.ts';
import { type SantitoPatch, santitosStore } from './store.ts';

type SantitoCreateBody = z.output<typeof SantitoCreateSchema>;

type AuditedSantito = Pick<
  SantitoRow,
  'name' | 'description' | 'instructions' | 'model' | 'starters' | 'knowledge' | 'visibility' | 'departmentId'
>;

/** The list's order (name, case-insensitive, then id): its cursors' tag. */
const SANTITO_CURSOR_TAG = 'santitos:name:asc';

/**
 * The domain's assistants (docs/ARCHITECTURE.md#organisations-domains-departments-premium), premium only: for a caller whose domain is not premium every
 * santito answers 404, as if the feature did not exist. Everyone uses them, Editors create, authors
 * and Admins edit.
 */
export function santitosService(ctx: AppContext, store = santitosStore(ctx.db)) {
  const avatars = () => ctx.services.storage.bucket('agents');
  const cursors = cursorsFor(ctx.config);

  function assertPremium(caller: UserCaller): void {
    if (!caller.premium) throw santitoNotFound();
  }

  async function visible(caller: UserCaller, id: string): Promise<SantitoRow> {
    assertPremium(caller);
    const row = await store.find(caller, id);
    if (!row) throw santitoNotFound();
    return row;
  }

  /** The santito if the caller may change it: 404 when they cannot see it, 403 when they only see it. */
  async function editable(caller: UserCaller, id: string): Promise<SantitoRow> {
    const row = await visible(caller, id);
    if (!can(caller, 'edit', row)) throw forbidden('Only its author or an Admin can change this santito');
    return row;
  }

  /** A santito's model must be one a provider of the domain offers, as the default model must. */
  async function checkModel(caller: UserCaller, model: string): Promise<void> {
    if (!(await ctx.services.providers.offers(caller, model))) {
      throw invalidField('model', 'No configured provider offers this model');
    }
  }

  /** Knowledge sources a santito lists must be its domain's (docs/ARCHITECTURE.md#knowledge): another domain's id is refused. */
  async function checkKnowledge(caller: UserCaller, knowledge: ReadonlyArray<{ kind: string; ref: string }>) {
    const refs = sourceRefs(knowledge);
    if (refs.length === 0) return;
    const found = await ctx.services.knowledge.sourceNames(caller.domain.id, refs);
    if (refs.some((ref) => !found.has(ref))) {
      throw invalidField('knowledge', 'No such knowledge source in your organisation');
    }
  }

  async function checkDepartment(caller: UserCaller, departmentId: string): Promise<void> {
    if ((await store.departmentName(caller, departmentId)) === undefined) {
      throw invalidField('departmentId', 'No such department in your organisation');
    }
  }

  /**
   * What the audit log keeps of a santito: its instructions (the system prompt of every chat with
   * it) and the rest of what steers an answer, with sources and department by name, as a reader
   * knows them. Read before the change's transaction opens, so it takes no second connection.
   */
  async function audited(caller: UserCaller, santito: AuditedSantito): Promise<Record<string, unknown>> {
    const refs = sourceRefs(santito.knowledge);
    const sources = refs.length > 0 ? await ctx.services.knowledge.sourceNames(caller.domain.id, refs) : null;
    const department = santito.departmentId ? await store.departmentName(caller, santito.departmentId) : null;
    return {
      displayName: santito.name,
      description: santito.description,
      instructions: santito.instructions,
      model: santito.model,
      starters: santito.starters,
      knowledge: santito.knowledge.map((k) => sources?.get(k.ref) ?? (k.title || k.ref)),
      visibility: santito.visibility,
      department: department ?? null,
    };
  }

  /**
   * Runs a change of santito `id` and writes its audit entry in one transaction: both happen, or
   * neither. A santito gone meanwhile (`run` finds none) is a 404 and logs nothing.
   */
  function change(
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

  /** Deletes a replaced avatar image; a failure leaves an orphan object behind, never an error. */
  const dropImage = (key: string) => deleteStored(ctx, 'agents', [key]);

  return {
    /** A santito the caller may chat with, or undefined (also when the domain is not premium). */
    async findUsable(caller: Caller, id: string): Promise<SantitoRow | undefined> {
      if (!caller.premium) return undefined;
      return store.find(caller, id);
    },

    /** Every santito the caller may chat with, by name (none when the domain is not premium). */
    async listUsable(caller: AccountCaller, limit = 200): Promise<SantitoRow[]> {
      if (!caller.premium) return [];
      return (await store.list(caller, { limit })).items;
    },

    async list(caller: UserCaller, query: SantitoListQuery): Promise<Page<Santito>> {
      assertPremium(caller);
      const after = cursors.parse(SANTITO_CURSOR_TAG, query.cursor, 2);
      const page = await store.list(caller, {
        limit: query.limit,
        ...(after ? { after } : {}),
        ...(query.q ? { q: query.q } : {}),
      });
      return cursors.page(SANTITO_CURSOR_TAG, page, (r) => toSantito(r, caller));
    },

    async get(caller: UserCaller, id: string): Promise<Santito> {
      return toSantito(await visible(caller, id), caller);
    },

    async create(caller: UserCaller, body: SantitoCreateBody, meta: AuditMeta): Promise<Santito> {
      assertPremium(caller);
      authorize(caller, 'create', null, 'Only Editors and Admins can create santitos');
      const departmentId = body.visibility === 'department' ? (body.departmentId ?? null) : null;
      if (departmentId) await checkDepartment(caller, departmentId);
      if (body.model) await checkModel(caller, body.model);
      await checkKnowledge(caller, body.knowledge);
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
        visibility: body.visibility,
        departmentId,
        createdAt: now,
        updatedAt: now,
      };
      const after = await audited(caller, values);
      const row = await change(caller, meta, 'santito.create', values.id, { after }, (tx) =>
        store.insert(caller, values, tx),
      );
      return toSantito(row, caller);
    },

    async update(caller: UserCaller, id: string, body: SantitoUpdate, meta: AuditMeta): Promise<Santito> {
      const current = await editable(caller, id);
      const patch: SantitoPatch = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.description !== undefined) patch.description = body.description;
      if (body.instructions !== undefined) patch.instructions = body.instructions;
      if (body.model !== undefined) {
        // An unchanged model is not checked again: a santito whose provider was removed stays editable.
        if (body.model && body.model !== current.model) await checkModel(caller, body.model);
        patch.model = body.model;
      }
      if (body.starters !== undefined) patch.starters = body.starters;
      if (body.knowledge !== undefined) {
        await checkKnowledge(caller, body.knowledge);
        patch.knowledge = body.knowledge;
      }
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
        if (departmentId !== current.departmentId) await checkDepartment(caller, departmentId);
      }
      patch.visibility = visibility;
      patch.departmentId = departmentId;
      const diff = changedFields(
        await audited(caller, current),
        await audited(caller, { ...current, ...patch }),
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
      const row = await change(caller, meta, 'santito.update', id, logged, (tx) =>
        store.update(caller, id, patch, tx),
      );
      if (body.avatar !== undefined && hasAvatarImage(current) && current.avatar)
        await dropImage(current.avatar);
      return toSantito(row, caller);
    },

    async remove(caller: UserCaller, id: string, meta: AuditMeta): Promise<void> {
      const current = await editable(caller, id);
      const before = await audited(caller, current);
      const row = await change(caller, meta, 'santito.delete', id, { before }, (tx) =>
        store.remove(caller, id, tx),
      );
      if (hasAvatarImage(row) && row.avatar) await dropImage(row.avatar);
    },

    /** Before reading an upload: 404/403 unless the caller may edit it, 402 when the domain is out of room. */
    async checkAvatarUpload(caller: UserCaller, id: string): Promise<void> {
      await editable(caller, id);
      await assertRoomLeft(ctx, caller.domain.id);
    },

    /** Stores an uploaded avatar image (PNG, JPEG, GIF, WebP; ≤ 1 MiB) in the agents bucket. */
    async setAvatarImage(caller: UserCaller, id: string, file: ReadUpload): Promise<Santito> {
      const current = await editable(caller, id);
      const row = await storeUpload(ctx, {
        bucket: 'agents',
        domainId: caller.domain.id,
        file,
        maxBytes: Math.min(SantitoLimits.avatarMaxBytes, ctx.config.UPLOAD_MAX_BYTES),
        types: AvatarTypes,
        record: async (tx, stored) => {
          const patch = {
            avatar: stored.key,
            avatarSize: stored.size,
            avatarContentType: stored.contentType,
          };
          const updated = await store.update(caller, id, patch, tx);
          // Deleted while the bytes were stored.
          if (!updated) throw santitoNotFound();
          return updated;
        },
      });
      if (hasAvatarImage(current) && current.avatar) await dropImage(current.avatar);
      return toSantito(row, caller);
    },

    /** The uploaded avatar of a santito the caller can see. */
    async openAvatar(caller: UserCaller, id: string): Promise<{ object: StoredObject; fileName: string }> {
      const row = await visible(caller, id);
      if (!hasAvatarImage(row) || !row.avatar) throw objectNotFound();
      const object = await avatars().get(row.avatar);
      const ext = (row.avatarContentType ?? 'image/png').split('/')[1] ?? 'png';
      return { object, fileName: `${row.name}.${ext}` };
    },
  };
}

export type SantitosService = ReturnType<typeof santitosService>;
