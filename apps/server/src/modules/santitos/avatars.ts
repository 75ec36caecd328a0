import { AvatarTypes, type Santito, SantitoLimits } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import {
  assertRoomLeft,
  deleteStored,
  objectNotFound,
  type ReadUpload,
  type StoredObject,
  storeUpload,
} from '../storage/index.ts';
import { hasAvatarImage, toSantito } from './dto.ts';
import { santitoNotFound } from './errors.ts';
import { editable, type SantitosState, visible } from './state.ts';

/** Deletes a replaced avatar image; a failure leaves an orphan object behind, never an error. */
export const dropImage = (state: SantitosState, key: string) => deleteStored(state.ctx, 'agents', [key]);

/** Before reading an upload: 404/403 unless the caller may edit it, 402 when the domain is out of room. */
export async function checkAvatarUpload(state: SantitosState, caller: UserCaller, id: string): Promise<void> {
  const { ctx } = state;
  await editable(state, caller, id);
  await assertRoomLeft(ctx, caller.domain.id);
}

/** Stores an uploaded avatar image (PNG, JPEG, GIF, WebP; ≤ 1 MiB) in the agents bucket. */
export async function setAvatarImage(
  state: SantitosState,
  caller: UserCaller,
  id: string,
  file: ReadUpload,
): Promise<Santito> {
  const { ctx, store } = state;
  const current = await editable(state, caller, id);
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
  if (hasAvatarImage(current) && current.avatar) await dropImage(state, current.avatar);
  return toSantito(row, caller);
}

/** The uploaded avatar of a santito the caller can see. */
export async function openAvatar(
  state: SantitosState,
  caller: UserCaller,
  id: string,
): Promise<{ object: StoredObject; fileName: string }> {
  const row = await visible(state, caller, id);
  if (!hasAvatarImage(row) || !row.avatar) throw objectNotFound();
  const object = await state.ctx.services.storage.bucket('agents').get(row.avatar);
  const ext = (row.avatarContentType ?? 'image/png').split('/')[1] ?? 'png';
  return { object, fileName: `${row.name}.${ext}` };
}
