import type { ChatParams, MessageStatus, MessageUsage } from '@assistente/contracts';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { attachments, chats, messages, searchVector } from '../../db/schema/index.ts';
import type { Caller } from '../../plugins/auth.ts';
import type { AttachmentRow, ChatRow, MessageRow } from './dto.ts';

/** Sort key of the chat list: pinned first, then newest activity first, then id. */
export type ChatCursor = { pinned: boolean; updatedAt: Date; id: string };

export interface ChatPage {
  items: ChatRow[];
  total: number;
  nextCursor?: ChatCursor;
}

export interface MessagePage {
  /** Oldest → newest. */
  items: MessageRow[];
  /** The `before` of the previous (older) page, when there is one. */
  nextBefore?: string;
}

/** The caller's own, not deleted chats: the scope of everything a caller reads or writes here. */
const ownChats = (caller: Caller) => and(eq(chats.userId, caller.user.id), isNull(chats.deletedAt));

/** `chatId` is one of the caller's live chats (for rows that hang off a chat). */
const ownChat = (caller: Caller, chatId: string) =>
  sql`exists (select 1 from ${chats} where ${chats.id} = ${chatId} and ${chats.userId} = ${caller.user.id} and ${chats.deletedAt} is null)`;

/**
 * A prefix query from the user's words, tokenised by the database exactly as the documents are
 * (same parser, same accent folding), so PGlite and PostgreSQL match the same rows.
 */
function searchQuery(q: string): SQL {
  return sql`(select to_tsquery('simple', coalesce(string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & '), '')) from unnest(${searchVector(sql`${q}::text`)}))`;
}

/** Whether a search string has anything the text search can match. */
export const hasSearchableWords = (q: string) => /[\p{L}\p{N}]/u.test(q);

export interface NewMessage {
  id: string;
  chatId: string;
  parentId: string | null;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  model?: string | null;
  attachmentIds?: string[];
  createdAt: Date;
}

/**
 * SQL of the chats manager. Caller-first functions apply the tenant scope themselves; the `stream*`
 * functions act on ids the agents websocket got through a caller-scoped call before.
 */
export function chatsStore(db: Db) {
  return {
    /** `exec`: a transaction to read in (PGlite has one connection: never read outside an open one). */
    async findChat(caller: Caller, chatId: string, exec: Db | Tx = db): Promise<ChatRow | undefined> {
      const [row] = await exec
        .select()
        .from(chats)
        .where(and(eq(chats.id, chatId), ownChats(caller)))
        .limit(1);
      return row;
    },

    async listChats(
      caller: Caller,
      query: { limit: number; after?: ChatCursor; q?: string },
    ): Promise<ChatPage> {
      let filter = ownChats(caller);
      if (query.q) {
        const tsq = searchQuery(query.q);
        filter = and(
          filter,
          sql`(${searchVector(chats.title)} @@ ${tsq} or exists (select 1 from ${messages} where ${messages.chatId} = ${chats.id} and ${messages.status} <> 'streaming' and ${searchVector(messages.content)} @@ ${tsq}))`,
        );
      }
      const after = query.after
        ? sql`(${chats.pinned}, ${chats.updatedAt}, ${chats.id}) < (${query.after.pinned}, ${query.after.updatedAt.toISOString()}::timestamptz, ${query.after.id})`
        : undefined;
      const [rows, totals] = await Promise.all([
        db
          .select()
          .from(chats)
          .where(and(filter, after))
          .orderBy(desc(chats.pinned), desc(chats.updatedAt), desc(chats.id))
          .limit(query.limit + 1),
        db.select({ n: count() }).from(chats).where(filter),
      ]);
      const items = rows.slice(0, query.limit);
      const last = items.at(-1);
      return {
        items,
        total: totals[0]?.n ?? 0,
        ...(rows.length > query.limit && last
          ? { nextCursor: { pinned: last.pinned, updatedAt: last.updatedAt, id: last.id } }
          : {}),
      };
    },

    async insertChat(
      caller: Caller,
      values: { id: string; title: string; agentId: string | null; params: ChatParams; now: Date },
    ): Promise<ChatRow> {
      const [row] = await db
        .insert(chats)
        .values({
          id: values.id,
          userId: caller.user.id,
          domainId: caller.domain.id,
          agentId: values.agentId,
          title: values.title,
          params: values.params,
          createdAt: values.now,
          updatedAt: values.now,
        })
        .returning();
      return row!;
    },

    /** Rename, pin, params: `updatedAt` (the list's activity order) is kept as it was. */
    async updateChat(
      caller: Caller,
      chatId: string,
      patch: { title?: string; pinned?: boolean; params?: ChatParams },
    ): Promise<ChatRow | undefined> {
      const [row] = await db
        .update(chats)
        .set({ ...patch, updatedAt: sql`${chats.updatedAt}` })
        .where(and(eq(chats.id, chatId), ownChats(caller)))
        .returning();
      return row;
    },

    async softDeleteChat(caller: Caller, chatId: string, at: Date): Promise<ChatRow | undefined> {
      const [row] = await db
        .update(chats)
        .set({ deletedAt: at, updatedAt: sql`${chats.updatedAt}` })
        .where(and(eq(chats.id, chatId), ownChats(caller)))
        .returning();
      return row;
    },

    /** Undeletes a chat deleted at or after `deletedSince`; undefined when there is none. */
    async restoreChat(caller: Caller, chatId: string, deletedSince: Date): Promise<ChatRow | undefined> {
      const [row] = await db
        .update(chats)
        .set({ deletedAt: null, updatedAt: sql`${chats.updatedAt}` })
        .where(
          and(
            eq(chats.id, chatId),
            eq(chats.userId, caller.user.id),
            isNotNull(chats.deletedAt),
            sql`${chats.deletedAt} >= ${deletedSince.toISOString()}::timestamptz`,
          ),
        )
        .returning();
      return row;
    },

    /** The newest `limit` messages before `before` (a message of this chat), answered oldest first. */
    async listMessages(
      caller: Caller,
      chatId: string,
      query: { limit: number; before?: MessageRow },
    ): Promise<MessagePage> {
      const before = query.before
        ? sql`(${messages.createdAt}, ${messages.id}) < (${query.before.createdAt.toISOString()}::timestamptz, ${query.before.id})`
        : undefined;
      const rows = await db
        .select()
        .from(messages)
        .where(and(eq(messages.chatId, chatId), ownChat(caller, chatId), before))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(query.limit + 1);
      const items = rows.slice(0, query.limit).reverse();
      const oldest = items[0];
      return { items, ...(rows.length > query.limit && oldest ? { nextBefore: oldest.id } : {}) };
    },

    /** Every message of the chat, oldest first (export). */
    async allMessages(caller: Caller, chatId: string): Promise<MessageRow[]> {
      return db
        .select()
        .from(messages)
        .where(and(eq(messages.chatId, chatId), ownChat(caller, chatId)))
        .orderBy(asc(messages.createdAt), asc(messages.id));
    },

    async findMessage(caller: Caller, chatId: string, messageId: string): Promise<MessageRow | undefined> {
      const [row] = await db
        .select()
        .from(messages)
        .where(and(eq(messages.id, messageId), eq(messages.chatId, chatId), ownChat(caller, chatId)))
        .limit(1);
      return row;
    },

    /** The newest message of the chat: the tip of the branch the user last worked on. */
    async latestMessage(caller: Caller, chatId: string): Promise<MessageRow | undefined> {
      const [row] = await db
        .select()
        .from(messages)
        .where(and(eq(messages.chatId, chatId), ownChat(caller, chatId)))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(1);
      return row;
    },

    /**
     * Inserts a user message (and, when given, the empty answer that follows it) and bumps the
     * chat's activity, in one statement (atomic, one round trip); undefined when the chat is not
     * the caller's (any more). Answers the rows as stored.
     */
    async insertUserMessage(
      caller: Caller,
      message: NewMessage,
      answer?: NewMessage,
    ): Promise<MessageRow[] | undefined> {
      const rows = (answer ? [message, answer] : [message]).map(toRow);
      const at = (answer ?? message).createdAt.toISOString();
      const values = sql.join(
        rows.map(
          (r) =>
            sql`(${r.id}, ${r.chatId}, ${r.parentId}::text, ${r.role}, ${r.content}, ${r.status}, ${r.model}::text, ${JSON.stringify(r.attachmentIds)}::jsonb, ${r.createdAt.toISOString()}::timestamptz)`,
        ),
        sql`, `,
      );
      const result = await db.execute(sql`
        with touched as (
          update ${chats} set updated_at = ${at}::timestamptz
           where ${chats.id} = ${message.chatId} and ${ownChats(caller)}
          returning 1
        )
        insert into ${messages} (id, chat_id, parent_id, role, content, status, model, attachment_ids, created_at, updated_at)
        select v.id, v.chat_id, v.parent_id, v.role, v.content, v.status, v.model, v.attachment_ids, v.created_at, v.created_at
          from (values ${values}) as v(id, chat_id, parent_id, role, content, status, model, attachment_ids, created_at)
         where exists (select 1 from touched)
        returning id`);
      return rowsOf(result).length === rows.length ? rows : undefined;
    },

    async findAttachments(caller: Caller, chatId: string, ids: readonly string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(attachments)
        .where(
          and(
            inArray(attachments.id, [...ids]),
            eq(attachments.chatId, chatId),
            eq(attachments.userId, caller.user.id),
            ownChat(caller, chatId),
          ),
        );
    },

    /** The caller's attachments among `ids`, whatever live chat of theirs they belong to. */
    async findOwnAttachments(caller: Caller, ids: readonly string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db
        .select({ attachment: attachments })
        .from(attachments)
        .innerJoin(chats, eq(chats.id, attachments.chatId))
        .where(
          and(inArray(attachments.id, [...ids]), eq(attachments.userId, caller.user.id), ownChats(caller)),
        )
        .then((rows) => rows.map((r) => r.attachment));
    },

    /** Attachments referenced by `rows`, keyed by id (message pages and exports). */
    async attachmentsOf(caller: Caller, chatId: string, rows: readonly MessageRow[]) {
      const ids = [...new Set(rows.flatMap((r) => r.attachmentIds))];
      const found = await this.findAttachments(caller, chatId, ids);
      return new Map(found.map((a) => [a.id, a]));
    },

    async insertAttachment(tx: Tx, caller: Caller, row: Omit<AttachmentRow, 'userId' | 'domainId'>) {
      const [inserted] = await tx
        .insert(attachments)
        .values({ ...row, userId: caller.user.id, domainId: caller.domain.id })
        .returning();
      return inserted!;
    },

    /** Deletes an attachment no message refers to yet; undefined when there is none such. */
    async deleteUnsentAttachment(
      caller: Caller,
      chatId: string,
      attachmentId: string,
    ): Promise<AttachmentRow | undefined | 'referenced'> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(attachments)
          .where(
            and(
              eq(attachments.id, attachmentId),
              eq(attachments.chatId, chatId),
              eq(attachments.userId, caller.user.id),
              ownChat(caller, chatId),
            ),
          )
          .limit(1);
        if (!row) return undefined;
        const [used] = await tx
          .select({ id: messages.id })
          .from(messages)
          .where(
            and(
              eq(messages.chatId, chatId),
              sql`${messages.attachmentIds} @> ${JSON.stringify([attachmentId])}::jsonb`,
            ),
          )
          .limit(1);
        if (used) return 'referenced';
        await tx.delete(attachments).where(eq(attachments.id, attachmentId));
        return row;
      });
    },

    // ---- The agents websocket's writer: ids it already checked through a caller-scoped call. ----

    async streamFindChat(chatId: string): Promise<ChatRow | undefined> {
      const [row] = await db
        .select()
        .from(chats)
        .where(and(eq(chats.id, chatId), isNull(chats.deletedAt)))
        .limit(1);
      return row;
    },

    async streamFindMessage(messageId: string): Promise<MessageRow | undefined> {
      const [row] = await db.select().from(messages).where(eq(messages.id, messageId)).limit(1);
      return row;
    },

    async streamInsertMessage(message: NewMessage): Promise<MessageRow> {
      return db.transaction(async (tx) => {
        await tx.update(chats).set({ updatedAt: message.createdAt }).where(eq(chats.id, message.chatId));
        const [row] = await tx.insert(messages).values(toInsert(message)).returning();
        return row!;
      });
    },

    /** Replaces the text of a message still streaming; a finished one is left alone. */
    async streamSetContent(messageId: string, content: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(messages)
        .set({ content, updatedAt: at })
        .where(and(eq(messages.id, messageId), eq(messages.status, 'streaming')))
        .returning({ id: messages.id });
      return rows.length > 0;
    },

    /** Ends a streaming answer; on one already ended it changes nothing and answers it as it is. */
    async streamFinish(
      messageId: string,
      patch: {
        status: MessageStatus;
        content?: string;
        usage?: MessageUsage | null;
        error?: string | null;
        model?: string | null;
      },
      at: Date,
    ): Promise<MessageRow | undefined> {
      return db.transaction(async (tx) => {
        // Only the first end counts (a stop racing the natural end must not overwrite it).
        const [row] = await tx
          .update(messages)
          .set({ ...patch, updatedAt: at })
          .where(and(eq(messages.id, messageId), eq(messages.status, 'streaming')))
          .returning();
        if (!row) {
          const [current] = await tx.select().from(messages).where(eq(messages.id, messageId)).limit(1);
          return current;
        }
        await tx.update(chats).set({ updatedAt: at }).where(eq(chats.id, row.chatId));
        return row;
      });
    },

    /**
     * The branch root → leaf in one round trip: `leafId`, or the chat's newest message when null
     * (the tip of the branch the user last worked on). Empty when there is no such message.
     */
    async streamBranchTo(chatId: string, leafId: string | null): Promise<MessageRow[]> {
      const start = leafId === null ? sql`` : sql` and ${messages.id} = ${leafId}`;
      const rows = await db
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.chatId, chatId),
            sql`${messages.id} in (
              with recursive branch(id, parent_id, depth) as (
                (select id, parent_id, 0 from ${messages}
                  where ${messages.chatId} = ${chatId}${start}
                  order by ${messages.createdAt} desc, ${messages.id} desc limit 1)
                union all
                select m.id, m.parent_id, b.depth + 1 from ${messages} m
                  join branch b on m.id = b.parent_id
                 where b.depth < 100000
              )
              select id from branch)`,
          ),
        );
      // Parents are looked up by primary key alone (a chat filter in the recursive step made the
      // planner scan the whole chat at every step); the outer chat filter keeps the walk in it.
      if (rows.length === 0) return [];
      // Ordered by walking up from the leaf: the newest row when no leaf was named.
      const byId = new Map(rows.map((r) => [r.id, r]));
      let leaf = leafId === null ? undefined : byId.get(leafId);
      if (leafId === null) {
        for (const r of rows) {
          if (!leaf || r.createdAt > leaf.createdAt || (+r.createdAt === +leaf.createdAt && r.id > leaf.id))
            leaf = r;
        }
      }
      const out: MessageRow[] = [];
      for (let r = leaf; r; r = r.parentId ? byId.get(r.parentId) : undefined) out.push(r);
      return out.reverse();
    },

    async streamTouchChat(chatId: string, at: Date): Promise<void> {
      await db.update(chats).set({ updatedAt: at }).where(eq(chats.id, chatId));
    },

    /** Sets the title only while it is still empty (the user's own title always wins). */
    async streamTitleIfEmpty(chatId: string, title: string): Promise<boolean> {
      const rows = await db
        .update(chats)
        .set({ title, updatedAt: sql`${chats.updatedAt}` })
        .where(and(eq(chats.id, chatId), eq(chats.title, '')))
        .returning({ id: chats.id });
      return rows.length > 0;
    },

    async streamAttachmentsByIds(chatId: string, ids: readonly string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(attachments)
        .where(and(eq(attachments.chatId, chatId), inArray(attachments.id, [...ids])));
    },

    // ---- Housekeeping ----

    /** Ends answers whose writer died (no flush since `before`): status 'error', partial text kept. */
    async failStaleStreams(before: Date, error: string, at: Date): Promise<number> {
      const rows = await db
        .update(messages)
        .set({ status: 'error', error, updatedAt: at })
        .where(and(eq(messages.status, 'streaming'), lt(messages.updatedAt, before)))
        .returning({ id: messages.id });
      return rows.length;
    },

    /** Removes chats deleted before `before` (their messages and attachment rows cascade). */
    async purgeDeleted(before: Date, limit = 500): Promise<{ chats: number; storageKeys: string[] }> {
      return db.transaction(async (tx) => {
        const doomed = await tx
          .select({ id: chats.id })
          .from(chats)
          .where(and(isNotNull(chats.deletedAt), lt(chats.deletedAt, before)))
          .limit(limit);
        if (doomed.length === 0) return { chats: 0, storageKeys: [] };
        const ids = doomed.map((d) => d.id);
        const files = await tx
          .select({ key: attachments.storageKey })
          .from(attachments)
          .where(inArray(attachments.chatId, ids));
        await tx.delete(chats).where(inArray(chats.id, ids));
        return { chats: ids.length, storageKeys: files.map((f) => f.key) };
      });
    },
  };
}

export type ChatsStore = ReturnType<typeof chatsStore>;

/** The row a NewMessage becomes, every column its insert leaves to the default included. */
export function toRow(m: NewMessage): MessageRow {
  return { ...toInsert(m), usage: null, error: null };
}

function toInsert(m: NewMessage) {
  return {
    id: m.id,
    chatId: m.chatId,
    parentId: m.parentId,
    role: m.role,
    content: m.content,
    status: m.status,
    model: m.model ?? null,
    attachmentIds: m.attachmentIds ?? [],
    createdAt: m.createdAt,
    updatedAt: m.createdAt,
  };
}

/** node-postgres and PGlite both answer `execute` with `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown } | undefined)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** Opaque keyset cursor of the chat list. */
export function encodeChatCursor(c: ChatCursor): string {
  return Buffer.from(JSON.stringify([c.pinned ? 1 : 0, c.updatedAt.toISOString(), c.id])).toString(
    'base64url',
  );
}

export function decodeChatCursor(cursor: string): ChatCursor | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(v) &&
      v.length === 3 &&
      (v[0] === 0 || v[0] === 1) &&
      typeof v[1] === 'string' &&
      typeof v[2] === 'string'
    ) {
      const updatedAt = new Date(v[1]);
      if (!Number.isNaN(updatedAt.getTime())) return { pinned: v[0] === 1, updatedAt, id: v[2] };
    }
  } catch {
    // fall through: not a cursor we made
  }
  return undefined;
}
