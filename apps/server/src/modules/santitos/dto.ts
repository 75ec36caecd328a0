import type { Santito } from '@assistente/contracts';
import type { santitos } from '../../db/schema/index.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { can } from './policy.ts';

export type SantitoRow = typeof santitos.$inferSelect;

/** Whether `avatar` holds the storage key of an uploaded image rather than an emoji. */
export const hasAvatarImage = (row: SantitoRow) => row.avatarContentType !== null && row.avatar !== null;

export function toSantito(row: SantitoRow, caller: UserCaller): Santito {
  const image = hasAvatarImage(row);
  return {
    _id: row.id,
    domain: row.domainId,
    name: row.name,
    description: row.description,
    avatar: image ? null : row.avatar,
    // The version parameter makes a replaced image a new URL for caches.
    avatarUrl: image ? `/api/v1/agent/${row.id}/avatar?v=${row.updatedAt.getTime()}` : null,
    instructions: row.instructions,
    model: row.model,
    starters: [...row.starters],
    knowledge: row.knowledge.map((k) => ({ kind: k.kind, ref: k.ref, title: k.title })),
    tools: [...row.tools],
    maxSteps: row.maxSteps,
    visibility: row.visibility,
    departmentId: row.departmentId,
    authorId: row.authorId,
    canEdit: can(caller, 'edit', row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
