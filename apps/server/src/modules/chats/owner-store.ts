import { and, asc, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { attachments, chatShares, chats, messages, streamedContent } from '../../db/schema/index.ts';
import type { AttachmentRow, ChatRow, MessageRow } from './dto.ts';
import { startedChat } from './store.ts';

/**
 * SQL over one person's chats as a whole, for their export and their erasure
 * (docs/ARCHITECTURE.md#export-and-erasure). Keyed by the person's user id: the governance module
 * decided who may ask before it calls.
 */
export function ownerStore(db: Db) {
  return {
    /** A page of the person's live, started chats, oldest first, after `(createdAt, id)`. */
    async chatsPage(userId: string, limit: number, after?: { at: Date; id: string }): Promise<ChatRow[]> {
      return db
        .select()
        .from(chats)
        .where(
          and(
            eq(chats.userId, userId),
            isNull(chats.deletedAt),
            startedChat,
            after
              ? sql`(${chats.createdAt}, ${chats.id}) > (${after.at.toISOString()}::timestamptz, ${after.id})`
              : undefined,
          ),
        )
        .orderBy(asc(chats.createdAt), asc(chats.id))
        .limit(limit);
    },

    /** Every message of a chat, oldest first, an answer still streaming with its text so far. */
    async messagesOf(chatId: string): Promise<MessageRow[]> {
      return db
        .select({
          ...getTableColumns(messages),
          content: sql<string>`case when ${messages.status} = 'streaming' then ${streamedContent} else ${messages.content} end`,
        })
        .from(messages)
        .where(eq(messages.chatId, chatId))
        .orderBy(asc(messages.createdAt), asc(messages.id));
    },

    /** The chat's attachment rows, oldest first (those whose file retention removed included). */
    async attachmentsOf(chatId: string): Promise<AttachmentRow[]> {
      return db
        .select()
        .from(attachments)
        .where(eq(attachments.chatId, chatId))
        .orderBy(asc(attachments.createdAt), asc(attachments.id));
    },

    /** The person's links of live chats, oldest first. */
    async sharesOf(userId: string) {
      return db
        .select({
          id: chatShares.id,
          chatId: chatShares.chatId,
          title: chatShares.title,
          audience: chatShares.audience,
          views: chatShares.views,
          expiresAt: chatShares.expiresAt,
          createdAt: chatShares.createdAt,
        })
        .from(chatShares)
        .innerJoin(chats, eq(chats.id, chatShares.chatId))
        .where(and(eq(chatShares.userId, userId), isNull(chats.deletedAt)))
        .orderBy(asc(chatShares.createdAt), asc(chatShares.id));
    },

    /**
     * Takes up to `limit` of the person's chats out of use (marked deleted, as the trash marks
     * them; trashed ones keep their date) for the purge to remove; answers their ids.
     */
    async takeChatsOf(userId: string, limit: number): Promise<string[]> {
      const taken = await db
        .update(chats)
        .set({ deletedAt: sql`coalesce(${chats.deletedAt}, now())` })
        .where(
          inArray(
            chats.id,
            db.select({ id: chats.id }).from(chats).where(eq(chats.userId, userId)).limit(limit),
          ),
        )
        .returning({ id: chats.id });
      return taken.map((t) => t.id);
    },
  };
}

export type OwnerStore = ReturnType<typeof ownerStore>;
