import { and, count, desc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { attachments, chatShares, chats, messages, sharingSettings } from '../../db/schema/index.ts';
import { type KeyedPage, keyedPage } from '../../lib/paging.ts';
import type { AttachmentRow, ChatRow, MessageRow } from './dto.ts';

export type ShareRow = typeof chatShares.$inferSelect;
/** A link as its owner's list shows it: without the snapshot, with how many messages it holds. */
export type ShareListRow = Omit<ShareRow, 'messages'> & { messageCount: number };

/** A live link and what reading it needs: the domain's public-link setting and its chat's santito. */
export interface OpenShare {
  share: ShareRow;
  publicLinks: boolean;
  agentId: string | null;
}

/** The list's order (newest first, then id): its cursors' tag. */
export const SHARE_CURSOR_TAG = 'shares:createdAt:desc';

const { messages: _snapshot, ...listColumns } = getTableColumns(chatShares);

/**
 * SQL of share links (docs/ARCHITECTURE.md#share-links). A link is live while its chat is (not
 * deleted) and it has not expired: every read of a link goes through `openShare`, so deleting the
 * chat or passing the expiry stops it at once.
 */
export function sharesStore(db: Db) {
  return {
    async insert(tx: Tx, row: typeof chatShares.$inferInsert): Promise<ShareRow> {
      const [inserted] = await tx.insert(chatShares).values(row).returning();
      return inserted!;
    },

    /** A live link (its chat not deleted, not expired at `now`), with what reading it needs. */
    async openShare(id: string, now: Date): Promise<OpenShare | undefined> {
      const [row] = await db
        .select({ share: chatShares, publicLinks: sharingSettings.publicLinks, agentId: chats.agentId })
        .from(chatShares)
        .innerJoin(chats, eq(chats.id, chatShares.chatId))
        .leftJoin(sharingSettings, eq(sharingSettings.domainId, chatShares.domainId))
        .where(
          and(
            eq(chatShares.id, id),
            isNull(chats.deletedAt),
            sql`(${chatShares.expiresAt} is null or ${chatShares.expiresAt} > ${now.toISOString()}::timestamptz)`,
          ),
        )
        .limit(1);
      return row
        ? { share: row.share, publicLinks: row.publicLinks ?? false, agentId: row.agentId }
        : undefined;
    },

    /** A link by id whatever its state (revocation: an expired link can still be removed). */
    async find(id: string): Promise<ShareRow | undefined> {
      const [row] = await db.select().from(chatShares).where(eq(chatShares.id, id)).limit(1);
      return row;
    },

    async countView(id: string): Promise<void> {
      await db
        .update(chatShares)
        .set({ views: sql`${chatShares.views} + 1` })
        .where(eq(chatShares.id, id));
    },

    /** Deletes a link; false when there was none. */
    async delete(tx: Tx, id: string): Promise<boolean> {
      const gone = await tx.delete(chatShares).where(eq(chatShares.id, id)).returning({ id: chatShares.id });
      return gone.length > 0;
    },

    /**
     * The owner's links whose chat is live, newest first. A deleted chat's links are out of the
     * list as they are out of reach (restoring the chat within its window brings them back).
     */
    async listOwn(
      userId: string,
      query: { limit: number; after?: [string, string] },
    ): Promise<KeyedPage<ShareListRow>> {
      const filter = and(eq(chatShares.userId, userId), isNull(chats.deletedAt));
      const after = query.after
        ? sql`(${chatShares.createdAt}, ${chatShares.id}) < (${query.after[0]}::timestamptz, ${query.after[1]})`
        : undefined;
      const [rows, totals] = await Promise.all([
        db
          .select({
            ...listColumns,
            messageCount: sql<number>`jsonb_array_length(${chatShares.messages})::int`,
            key: sql<string>`${chatShares.createdAt}::text`,
          })
          .from(chatShares)
          .innerJoin(chats, eq(chats.id, chatShares.chatId))
          .where(and(filter, after))
          .orderBy(desc(chatShares.createdAt), desc(chatShares.id))
          .limit(query.limit + 1),
        db
          .select({ n: count() })
          .from(chatShares)
          .innerJoin(chats, eq(chats.id, chatShares.chatId))
          .where(filter),
      ]);
      return keyedPage(
        rows,
        query.limit,
        totals[0]?.n ?? 0,
        (r) => [r.key, r.id],
        ({ key: _key, ...r }) => ({ ...r, messageCount: Number(r.messageCount) }),
      );
    },

    /** The chat's attachments among `ids` still stored (files of a snapshot, read through its link). */
    async chatAttachments(chatId: string, ids: readonly string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(attachments)
        .where(
          and(
            eq(attachments.chatId, chatId),
            inArray(attachments.id, [...ids]),
            isNull(attachments.removedAt),
          ),
        );
    },

    /** Whether the domain allows public links (no row: it does not). */
    async publicLinks(domainId: string): Promise<boolean> {
      const [row] = await db
        .select({ publicLinks: sharingSettings.publicLinks })
        .from(sharingSettings)
        .where(eq(sharingSettings.domainId, domainId))
        .limit(1);
      return row?.publicLinks ?? false;
    },

    async setPublicLinks(tx: Tx, domainId: string, publicLinks: boolean): Promise<void> {
      await tx
        .insert(sharingSettings)
        .values({ domainId, publicLinks })
        .onConflictDoUpdate({
          target: sharingSettings.domainId,
          set: { publicLinks, updatedAt: new Date() },
        });
    },

    /**
     * A reader's copy of a snapshot, in the quota's transaction: the chat, its files (bytes already
     * copied under new keys) and its messages, all or nothing.
     */
    async insertCopy(
      tx: Tx,
      copy: {
        chat: Pick<ChatRow, 'id' | 'userId' | 'domainId' | 'agentId' | 'title' | 'createdAt'>;
        files: AttachmentRow[];
        messages: Array<Omit<MessageRow, 'updatedAt'>>;
      },
    ): Promise<void> {
      const at = copy.chat.createdAt;
      await tx.insert(chats).values({ ...copy.chat, params: {}, updatedAt: at });
      if (copy.files.length > 0) await tx.insert(attachments).values(copy.files);
      if (copy.messages.length > 0)
        await tx.insert(messages).values(copy.messages.map((m) => ({ ...m, updatedAt: m.createdAt })));
    },
  };
}

export type SharesStore = ReturnType<typeof sharesStore>;
