import { RetentionLimits } from '@assistente/contracts';
import { PacedBatches } from '../../lib/paced-batches.ts';
import * as abandoned from './abandoned-chats.ts';
import { CHAT_RESTORE_WINDOW_MS } from './chat-crud.ts';
import { type ChatsState, deleteObjects } from './state.ts';

/**
 * How long a chat made for a new message's files waits for that message (it is out of the lists
 * meanwhile); then it is purged with its files, which would otherwise hold the domain's quota.
 */
const DRAFT_CHAT_TTL_MS = 24 * 60 * 60_000;

/** Runs a purge batch by batch, deleting each batch's files, until one removes nothing. */
async function purgeAll(s: ChatsState, batch: () => Promise<abandoned.Purged>): Promise<number> {
  let purged = 0;
  for (;;) {
    const done = await batch();
    purged += done.chats;
    await deleteObjects(s, done.storageKeys);
    if (done.chats === 0) return purged;
  }
}

/**
 * Bus channel: attachments whose files are gone (`{ ids }`). Whoever keeps something made of a file
 * (the agents' extracted texts) drops it on every replica.
 */
export const ATTACHMENTS_REMOVED = 'chats.attachments-removed';

/** Announces that the files of the attachments `ids` are gone (see ATTACHMENTS_REMOVED). */
export async function forgetFiles(s: ChatsState, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await s.ctx.bus.publish(ATTACHMENTS_REMOVED, { ids }).catch((err: unknown) => {
    s.ctx.log.warn({ err }, 'could not publish removed attachments');
  });
}

/** Chats deleted and purged a batch at a time. */
const PURGE_BATCH = 500;

/** Purges chats deleted before `before` (default: past the restore window), with their files. */
export async function purgeDeleted(
  s: ChatsState,
  before = new Date(Date.now() - CHAT_RESTORE_WINDOW_MS - 5_000),
): Promise<number> {
  let purged = 0;
  for (;;) {
    const ids = await abandoned.deletedBefore(s.ctx.db, before, PURGE_BATCH);
    if (ids.length === 0) return purged;
    purged += (await removeDeleted(s, ids, breathe)).chats;
  }
}

/** Between two statements of a purge: what waits on the database goes first. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Removes the deleted chats `ids`: their messages first, in statements of at most
 * RetentionLimits.batchRows rows sized to a few milliseconds with `pause` between (a chat of
 * thousands of messages held every other writer up as one cascade), then the chats, whose
 * attachment rows and links cascade, and their files. Texts read out of the files are forgotten on
 * every replica (ATTACHMENTS_REMOVED). Shared by the purge of deleted chats and retention.
 */
export async function removeDeleted(
  s: ChatsState,
  ids: readonly string[],
  pause: () => Promise<void>,
): Promise<{ chats: number; messages: number; files: number }> {
  const paced = new PacedBatches(RetentionLimits.batchRows);
  let messages = 0;
  for (;;) {
    let asked = 0;
    const n = await paced.run((size) => {
      asked = size;
      return abandoned.deleteMessagesOf(s.ctx.db, ids, size);
    });
    messages += n;
    if (n < asked) break;
    await pause();
  }
  const files = await abandoned.attachmentIdsOf(s.ctx.db, ids);
  const purged = await abandoned.removeMarked(s.ctx.db, ids);
  await deleteObjects(s, purged.storageKeys);
  await forgetFiles(s, files);
  return { chats: purged.chats, messages, files: purged.storageKeys.length };
}

/**
 * Purges drafts (no title, no message) and visitors' chats without a message made before
 * `before` (default: DRAFT_CHAT_TTL_MS ago), with their files.
 */
export function purgeDrafts(
  s: ChatsState,
  before = new Date(Date.now() - DRAFT_CHAT_TTL_MS),
): Promise<number> {
  return purgeAll(s, () => abandoned.purgeDrafts(s.ctx.db, before));
}
