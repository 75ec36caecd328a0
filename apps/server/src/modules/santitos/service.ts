import { randomUUID } from 'node:crypto';
import {
  AvatarTypes,
  hasRole,
  type Santito,
  type SantitoCreateSchema,
  SantitoLimits,
  type SantitoListQuery,
  type SantitoUpdate,
} from '@assistente/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import type { Caller } from '../../plugins/auth.ts';
import { providersService } from '../providers/index.ts';
import {
  assertRoomLeft,
  newObjectKey,
  resolveUploadType,
  type StoredObject,
  storageErrors,
  storageFor,
  withinQuota,
} from '../storage/index.ts';
import { canEditSantito, hasAvatarImage, type SantitoRow, toSantito } from './dto.ts';
import { santitoNotFound } from './errors.ts';
import { type SantitoPatch, santitosStore } from './store.ts';

type SantitoCreateBody = z.output<typeof SantitoCreateSchema>;

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${path}: ${message}`, [{ path, message }]);

function encodeCursor(key: [string, string]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') {
      return [v[0], v[1]];
    }
  } catch {
    // not a cursor we made
  }
  return undefined;
}

/**
 * The domain's assistants (DESIGN §7), premium only: for a caller whose domain is not premium every
 * santito answers 404, as if the feature did not exist. Everyone uses them, Editors create, authors
 * and Admins edit.
 */
export function santitosService(ctx: AppContext, store = santitosStore(ctx.db)) {
  const avatars = () => storageFor(ctx, 'agents');

  function assertPremium(caller: Caller): void {
    if (!caller.premium) throw santitoNotFound();
  }

  async function visible(caller: Caller, id: string): Promise<SantitoRow> {
    assertPremium(caller);
    const row = await store.find(caller, id);
    if (!row) throw santitoNotFound();
    return row;
  }

  /** The santito if the caller may change it: 404 when they cannot see it, 403 when they only see it. */
  async function editable(caller: Caller, id: string): Promise<SantitoRow> {
    const row = await visible(caller, id);
    if (!canEditSantito(caller, row)) throw forbidden('Only its author or an Admin can change this santito');
    return row;
  }

  /** A santito's model must be one a provider of the domain offers, as the default model must. */
  async function checkModel(caller: Caller, model: string): Promise<void> {
    if (!(await providersService(ctx).offers(caller, model))) {
      throw invalid('model', 'No configured provider offers this model');
    }
  }

  async function checkDepartment(caller: Caller, departmentId: string): Promise<void> {
    if (!(await store.departmentInDomain(caller, departmentId))) {
      throw invalid('departmentId', 'No such department in your organisation');
    }
  }

  /** Deletes a replaced avatar image; a failure leaves an orphan object behind, never an error. */
  async function dropImage(key: string): Promise<void> {
    await avatars()
      .delete(key)
      .catch((err: unknown) => ctx.log.warn({ err, key }, 'could not delete a santito avatar'));
  }

  return {
    /** A santito the caller may chat with, or undefined (also when the domain is not premium). */
    async findUsable(caller: Caller, id: string): Promise<SantitoRow | undefined> {
      if (!caller.premium) return undefined;
      return store.find(caller, id);
    },

    async list(
      caller: Caller,
      query: SantitoListQuery,
    ): Promise<{ items: Santito[]; total: number; nextCursor?: string }> {
      assertPremium(caller);
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (query.cursor !== undefined && !after) throw new AppError('BAD_REQUEST', 'Invalid cursor');
      const page = await store.list(caller, {
        limit: query.limit,
        ...(after ? { after } : {}),
        ...(query.q ? { q: query.q } : {}),
      });
      return {
        items: page.items.map((r) => toSantito(r, caller)),
        total: page.total,
        ...(page.nextCursor ? { nextCursor: encodeCursor(page.nextCursor) } : {}),
      };
    },

    async get(caller: Caller, id: string): Promise<Santito> {
      return toSantito(await visible(caller, id), caller);
    },

    async create(caller: Caller, body: SantitoCreateBody): Promise<Santito> {
      assertPremium(caller);
      if (!hasRole(caller.role, 'Editor')) throw forbidden('Only Editors and Admins can create santitos');
      const departmentId = body.visibility === 'department' ? (body.departmentId ?? null) : null;
      if (departmentId) await checkDepartment(caller, departmentId);
      if (body.model) await checkModel(caller, body.model);
      const now = new Date();
      const row = await store.insert(caller, {
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
      });
      return toSantito(row, caller);
    },

    async update(caller: Caller, id: string, body: SantitoUpdate): Promise<Santito> {
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
      if (body.knowledge !== undefined) patch.knowledge = body.knowledge;
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
          throw invalid('departmentId', 'departmentId is required when visibility is department');
        if (departmentId !== current.departmentId) await checkDepartment(caller, departmentId);
      }
      patch.visibility = visibility;
      patch.departmentId = departmentId;
      const row = await store.update(caller, id, patch);
      if (!row) throw santitoNotFound();
      if (body.avatar !== undefined && hasAvatarImage(current) && current.avatar)
        await dropImage(current.avatar);
      return toSantito(row, caller);
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await editable(caller, id);
      const row = await store.remove(caller, id);
      if (!row) throw santitoNotFound();
      if (hasAvatarImage(row) && row.avatar) await dropImage(row.avatar);
    },

    /** Before reading an upload: 404/403 unless the caller may edit it, 402 when the domain is out of room. */
    async checkAvatarUpload(caller: Caller, id: string): Promise<void> {
      await editable(caller, id);
      await assertRoomLeft(ctx, caller.domain.id);
    },

    /** Stores an uploaded avatar image (PNG, JPEG, GIF, WebP; ≤ 1 MiB) in the agents bucket. */
    async setAvatarImage(
      caller: Caller,
      id: string,
      file: { fileName: string; declaredType: string | undefined; data: Buffer },
    ): Promise<Santito> {
      const current = await editable(caller, id);
      const maxBytes = Math.min(SantitoLimits.avatarMaxBytes, ctx.config.UPLOAD_MAX_BYTES);
      if (file.data.length > maxBytes) throw storageErrors.tooLarge(maxBytes);
      const contentType = resolveUploadType(file.declaredType, file.fileName, file.data, AvatarTypes);
      await assertRoomLeft(ctx, caller.domain.id);
      const key = newObjectKey(caller.domain.id);
      await avatars().put(key, file.data, { contentType, size: file.data.length });
      let row: SantitoRow | undefined;
      try {
        row = await withinQuota(ctx, caller.domain.id, file.data.length, (tx) =>
          store.update(
            caller,
            id,
            { avatar: key, avatarSize: file.data.length, avatarContentType: contentType },
            tx,
          ),
        );
      } catch (err) {
        await dropImage(key);
        throw err;
      }
      if (!row) {
        await dropImage(key);
        throw santitoNotFound();
      }
      if (hasAvatarImage(current) && current.avatar) await dropImage(current.avatar);
      return toSantito(row, caller);
    },

    /** The uploaded avatar of a santito the caller can see. */
    async openAvatar(caller: Caller, id: string): Promise<{ object: StoredObject; fileName: string }> {
      const row = await visible(caller, id);
      if (!hasAvatarImage(row) || !row.avatar) throw storageErrors.objectNotFound();
      const object = await avatars().get(row.avatar);
      const ext = (row.avatarContentType ?? 'image/png').split('/')[1] ?? 'png';
      return { object, fileName: `${row.name}.${ext}` };
    },
  };
}

export type SantitosService = ReturnType<typeof santitosService>;
