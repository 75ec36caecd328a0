import { and, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { attachments, chats, messages, users } from '../../db/schema/index.ts';
import { startedChat } from './store.ts';

/**
 * Which chats nobody will come back to, and removing them: a named cross-table read
 * (docs/ARCHITECTURE.md#table-ownership). Whether a chat's owner is an embed visitor is read from
 * accounts' `users` in the same statement that deletes it, so a message sent meanwhile still
 * saves the chat; asking the accounts service first would split that check from the delete.
 */

/**
 * A chat nobody will come back to: a draft, or an embed visitor's chat without a message. A visitor
 * names chats over a public API; titled and left empty, they would be kept for ever.
 */
const abandonedChat = sql`(not ${startedChat} or (not exists (select 1 from ${messages} where ${messages.chatId} = ${chats.id}) and exists (select 1 from ${users} where ${users.id} = ${chats.userId} and ${users.type} = 'visitor')))`;

/**
 * Deletes drafts made before `before` that never became chats (no title, no message): the user
 * left without sending the files they attached. Embed visitors' chats without a message go too,
 * titled or not. Answers the removed files' storage keys.
 */
export function purgeDrafts(db: Db, before: Date, limit = 500): Promise<Purged> {
  // Checked again as it is deleted: a message sent meanwhile makes it a chat to keep.
  return purgeWhere(
    db,
    and(isNull(chats.deletedAt), lt(chats.createdAt, before), abandonedChat),
    limit,
    abandonedChat,
  );
}

/** Removes chats deleted before `before` (their messages and attachment rows cascade). */
export function purgeDeleted(db: Db, before: Date, limit = 500): Promise<Purged> {
  return purgeWhere(db, and(isNotNull(chats.deletedAt), lt(chats.deletedAt, before)), limit);
}

/** How many chats went, and their files' storage keys for the caller to delete. */
export interface Purged {
  chats: number;
  storageKeys: string[];
}

/** Removes up to `limit` chats matching `where`, and still matching `still` as they are deleted. */
function purgeWhere(db: Db, where: SQL | undefined, limit: number, still?: SQL): Promise<Purged> {
  return db.transaction(async (tx) => {
    const doomed = await tx.select({ id: chats.id }).from(chats).where(where).limit(limit);
    return removeChats(
      tx,
      doomed.map((d) => d.id),
      still,
    );
  });
}

/**
 * Deletes the chats `ids` (their messages and attachment rows cascade) where `still` holds yet;
 * answers how many went and the storage keys of their files, for the caller to delete.
 */
async function removeChats(tx: Tx, ids: string[], still?: SQL): Promise<Purged> {
  if (ids.length === 0) return { chats: 0, storageKeys: [] };
  const files = await tx
    .select({ chatId: attachments.chatId, key: attachments.storageKey })
    .from(attachments)
    .where(inArray(attachments.chatId, ids));
  const gone = await tx
    .delete(chats)
    .where(and(inArray(chats.id, ids), still))
    .returning({ id: chats.id });
  const removed = new Set(gone.map((g) => g.id));
  return { chats: removed.size, storageKeys: files.filter((f) => removed.has(f.chatId)).map((f) => f.key) };
}
