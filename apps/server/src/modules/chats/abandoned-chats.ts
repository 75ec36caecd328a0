import { and, asc, eq, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { attachments, chats, messages, users } from '../../db/schema/index.ts';
import { startedChat } from './store.ts';

/**
 * Which chats nobody will come back to, and removing them: a named cross-table read
 * (docs/ARCHITECTURE.md#table-ownership). Whether a chat's owner is an embed visitor is read from
 * accounts' `users` in the same statement that deletes it, so a message sent meanwhile still
 * saves the chat; asking the accounts service first would split that check from the delete.
 * Retention's chats and files are chosen the same way: the owner's department, whether they are a
 * visitor and whether they are on legal hold are read in the statement that takes them.
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

/** Up to `limit` chats deleted before `before`, for the purge to remove. */
export async function deletedBefore(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: chats.id })
    .from(chats)
    .where(and(isNotNull(chats.deletedAt), lt(chats.deletedAt, before)))
    .limit(limit);
  return rows.map((r) => r.id);
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

/** What retention keeps of a domain's chats: cut-offs of their last activity (docs/ARCHITECTURE.md#retention). */
export interface ExpiryRule {
  domainId: string;
  /** People's chats last active before it go; null keeps them. */
  before: Date | null;
  /** A department's stricter cut-off for its people, by department id. */
  departments: Record<string, Date>;
  /** Embed visitors' chats; null keeps them. */
  visitorsBefore: Date | null;
  exemptPinned: boolean;
}

const iso = (d: Date | null) => (d ? sql`${d.toISOString()}::timestamptz` : sql`null::timestamptz`);

/** Over `chats` joined with its owner in `users`: the chat is past the rule, and its owner not held. */
function expired(rule: ExpiryRule): SQL {
  const byDepartment = Object.entries(rule.departments).map(([id, at]) => sql`when ${id} then ${iso(at)}`);
  const cutoff =
    byDepartment.length > 0
      ? sql`case ${users.departmentId} ${sql.join(byDepartment, sql` `)} else ${iso(rule.before)} end`
      : iso(rule.before);
  return sql`(not ${users.legalHold}${rule.exemptPinned ? sql` and not ${chats.pinned}` : sql``}
    and case when ${users.type} = 'visitor' then ${chats.updatedAt} < ${iso(rule.visitorsBefore)}
             else ${chats.updatedAt} < ${cutoff} end)`;
}

/**
 * Takes up to `limit` chats of the domain past `rule` out of use: each is marked deleted as of its
 * last activity (so no undo window is open, and the purge of deleted chats finishes the work should
 * this run stop). Checked again as it is marked: a message sent meanwhile keeps the chat.
 */
export async function markExpired(
  db: Db,
  rule: ExpiryRule,
  limit: number,
): Promise<Array<{ id: string; visitor: boolean }>> {
  const cond = expired(rule);
  const result = await db.execute(sql`
    update ${chats} set deleted_at = least(${chats.updatedAt}, now())
      from ${users}
     where ${users.id} = ${chats.userId} and ${chats.deletedAt} is null and ${cond}
       and ${chats.id} in (
         select ${chats.id} from ${chats} inner join ${users} on ${users.id} = ${chats.userId}
          where ${chats.domainId} = ${rule.domainId} and ${chats.deletedAt} is null and ${cond}
          order by ${chats.updatedAt} limit ${limit})
    returning ${chats.id} as id, ${users.type} = 'visitor' as visitor`);
  return rowsOf(result);
}

/** Deletes up to `limit` messages of the chats `ids` (taken out of use first); answers how many. */
export async function deleteMessagesOf(db: Db, ids: readonly string[], limit: number): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await db
    .delete(messages)
    .where(
      inArray(
        messages.id,
        db
          .select({ id: messages.id })
          .from(messages)
          .where(inArray(messages.chatId, [...ids]))
          .limit(limit),
      ),
    )
    .returning({ id: messages.id });
  return gone.length;
}

/** The attachments of the chats `ids`, for whoever keeps something made from them. */
export async function attachmentIdsOf(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: attachments.id })
    .from(attachments)
    .where(inArray(attachments.chatId, [...ids]));
  return rows.map((r) => r.id);
}

/** Removes the chats `ids` still deleted (their attachment rows and links cascade). */
export function removeMarked(db: Db, ids: readonly string[]): Promise<Purged> {
  return db.transaction((tx) => removeChats(tx, [...ids], isNotNull(chats.deletedAt)));
}

/**
 * Up to `limit` files of the domain uploaded before `before` still stored: not of a person on legal
 * hold, nor (`exemptPinned`) of a pinned chat. Oldest first.
 */
export async function oldFiles(
  db: Db,
  rule: { domainId: string; before: Date; exemptPinned: boolean },
  limit: number,
): Promise<Array<{ id: string; storageKey: string }>> {
  return db
    .select({ id: attachments.id, storageKey: attachments.storageKey })
    .from(attachments)
    .innerJoin(chats, eq(chats.id, attachments.chatId))
    .where(
      and(
        eq(attachments.domainId, rule.domainId),
        lt(attachments.createdAt, rule.before),
        isNull(attachments.removedAt),
        rule.exemptPinned ? eq(chats.pinned, false) : undefined,
        sql`not exists (select 1 from ${users} where ${users.id} = ${attachments.userId} and ${users.legalHold})`,
      ),
    )
    .orderBy(asc(attachments.createdAt))
    .limit(limit);
}

/** Records that the files `ids` were deleted: their rows stay, so messages still say a file was there. */
export async function markFilesRemoved(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(attachments)
    .set({ removedAt: sql`now()` })
    .where(inArray(attachments.id, [...ids]));
}
