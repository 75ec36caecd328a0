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

/** Purges chats deleted before `before` (default: past the restore window), with their files. */
export function purgeDeleted(
  s: ChatsState,
  before = new Date(Date.now() - CHAT_RESTORE_WINDOW_MS - 5_000),
): Promise<number> {
  return purgeAll(s, () => abandoned.purgeDeleted(s.ctx.db, before));
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
