import type {
  AttachmentReading,
  ChatParams,
  Citation,
  ErrorCode,
  MessagePart,
  MessageStatus,
  MessageUsage,
  ProviderFailure,
} from '@assistente/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import {
  attachments,
  chats,
  messageChunks,
  messages,
  searchVector,
  streamedContent,
} from '../../db/schema/index.ts';
import { type KeyedPage, keyedPage } from '../../lib/paging.ts';
import type { AttachmentRow, ChatRow, MessageRow } from './dto.ts';
import { type ChatCaller, chatOwnerId } from './policy.ts';
import { chatRowOf, type NewMessage, toRow } from './rows.ts';

/** The chat list's order (pinned first, then newest activity, then id): its cursors' tag. */
export const CHAT_CURSOR_TAG = 'chats:pinned,updatedAt:desc';

/**
 * What storing messages does to their chat: creates it (a first message sent to a new chat), or
 * marks its activity, with new params or a first title when given. `owner`: the statement only
 * touches the chat while it is this caller's own live chat.
 */
export type ExchangeChat =
  | {
      kind: 'create';
      owner: ChatCaller;
      id: string;
      title: string;
      agentId: string | null;
      params: ChatParams;
    }
  | { kind: 'touch'; owner?: ChatCaller; id: string; params?: ChatParams; title?: string };

/** What a model's context needs of a message. */
export type ContextRow = Pick<
  MessageRow,
  'id' | 'parentId' | 'role' | 'content' | 'attachmentIds' | 'createdAt'
>;

export interface MessagePage {
  /** Oldest → newest. */
  items: MessageRow[];
  /** The `before` of the previous (older) page, when there is one. */
  nextBefore?: string;
}

/** The caller's own, not deleted chats: the scope of everything a caller reads or writes here. */
const ownChats = (caller: ChatCaller) => and(eq(chats.userId, chatOwnerId(caller)), isNull(chats.deletedAt));

/**
 * A chat people can see in their lists: it has a message, or a title. A chat made for a new
 * message's files (untitled, nothing sent yet) is a draft until that message is stored; listed, it
 * was an empty "untitled chat" left behind whenever the user went elsewhere before sending.
 */
export const startedChat = sql`(${chats.title} <> '' or exists (select 1 from ${messages} where ${messages.chatId} = ${chats.id}))`;

/** `chatId` is one of the caller's live chats (for rows that hang off a chat). */
const ownChat = (caller: ChatCaller, chatId: string) =>
  sql`exists (select 1 from ${chats} where ${chats.id} = ${chatId} and ${chats.userId} = ${chatOwnerId(caller)} and ${chats.deletedAt} is null)`;

/**
 * A prefix query from the user's words, tokenised by the database exactly as the documents are
 * (same parser, same accent folding), so PGlite and PostgreSQL match the same rows.
 */
function searchQuery(q: string): SQL {
  return sql`(select to_tsquery('simple', coalesce(string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & '), '')) from unnest(${searchVector(sql`${q}::text`)}))`;
}

/** Whether a search string has anything the text search can match. */
export const hasSearchableWords = (q: string) => /[\p{L}\p{N}]/u.test(q);

/**
 * A message as readers get it: an answer still streaming with the text its writer has stored so
 * far (pieces not yet folded in, see `messageChunks`).
 */
const messageColumns = {
  ...getTableColumns(messages),
  content: sql<string>`case when ${messages.status} = 'streaming' then ${streamedContent} else ${messages.content} end`,
};

/**
 * SQL of the chats manager. Caller-first functions apply the tenant scope themselves; the `stream*`
 * functions act on ids the agents websocket got through a caller-scoped call before.
 */
export function chatsStore(db: Db) {
  // The statements on the way to a first token, built once (and prepared once per connection on
  // PostgreSQL): building a query costs as much as PGlite takes to run a small one.
  const chatOfUser = db
    .select()
    .from(chats)
    .where(
      and(
        eq(chats.id, sql.placeholder('chatId')),
        eq(chats.userId, sql.placeholder('userId')),
        isNull(chats.deletedAt),
      ),
    )
    .limit(1)
    .prepare('chat_of_user');
  const chatContext = db
    .select({
      id: messages.id,
      parentId: messages.parentId,
      role: messages.role,
      content: messages.content,
      attachmentIds: messages.attachmentIds,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(eq(messages.chatId, sql.placeholder('chatId')))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .prepare('chat_context');

  return {
    /** `exec`: a transaction to read in (PGlite has one connection: never read outside an open one). */
    async findChat(caller: ChatCaller, chatId: string, exec: Db | Tx = db): Promise<ChatRow | undefined> {
      if (exec === db) return (await chatOfUser.execute({ chatId, userId: chatOwnerId(caller) }))[0];
      const [row] = await exec
        .select()
        .from(chats)
        .where(and(eq(chats.id, chatId), ownChats(caller)))
        .limit(1);
      return row;
    },

    async listChats(
      caller: ChatCaller,
      /** `after`: `[pinned, updatedAt (ISO), id]` of the previous page's last chat. */
      query: { limit: number; after?: [string, string, string]; q?: string },
    ): Promise<KeyedPage<ChatRow>> {
      let filter = and(ownChats(caller), startedChat);
      if (query.q) {
        const tsq = searchQuery(query.q);
        filter = and(
          filter,
          sql`(${searchVector(chats.title)} @@ ${tsq} or exists (select 1 from ${messages} where ${messages.chatId} = ${chats.id} and ${messages.status} <> 'streaming' and ${searchVector(messages.content)} @@ ${tsq}))`,
        );
      }
      const after = query.after
        ? sql`(${chats.pinned}, ${chats.updatedAt}, ${chats.id}) < (${query.after[0]}::boolean, ${query.after[1]}::timestamptz, ${query.after[2]})`
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
      return keyedPage(
        rows,
        query.limit,
        totals[0]?.n ?? 0,
        (r) => [String(r.pinned), r.updatedAt.toISOString(), r.id],
        (r) => r,
      );
    },

    async insertChat(
      caller: ChatCaller,
      values: { id: string; title: string; agentId: string | null; params: ChatParams; now: Date },
    ): Promise<ChatRow> {
      const [row] = await db
        .insert(chats)
        .values({
          id: values.id,
          userId: chatOwnerId(caller),
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
      caller: ChatCaller,
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

    async softDeleteChat(caller: ChatCaller, chatId: string, at: Date): Promise<ChatRow | undefined> {
      const [row] = await db
        .update(chats)
        .set({ deletedAt: at, updatedAt: sql`${chats.updatedAt}` })
        .where(and(eq(chats.id, chatId), ownChats(caller)))
        .returning();
      return row;
    },

    /** Undeletes a chat deleted at or after `deletedSince`; undefined when there is none. */
    async restoreChat(caller: ChatCaller, chatId: string, deletedSince: Date): Promise<ChatRow | undefined> {
      const [row] = await db
        .update(chats)
        .set({ deletedAt: null, updatedAt: sql`${chats.updatedAt}` })
        .where(
          and(
            eq(chats.id, chatId),
            eq(chats.userId, chatOwnerId(caller)),
            isNotNull(chats.deletedAt),
            sql`${chats.deletedAt} >= ${deletedSince.toISOString()}::timestamptz`,
          ),
        )
        .returning();
      return row;
    },

    /** The newest `limit` messages before `before` (a message of this chat), answered oldest first. */
    async listMessages(
      caller: ChatCaller,
      chatId: string,
      query: { limit: number; before?: MessageRow },
    ): Promise<MessagePage> {
      const before = query.before
        ? sql`(${messages.createdAt}, ${messages.id}) < (${query.before.createdAt.toISOString()}::timestamptz, ${query.before.id})`
        : undefined;
      const rows = await db
        .select(messageColumns)
        .from(messages)
        .where(and(eq(messages.chatId, chatId), ownChat(caller, chatId), before))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(query.limit + 1);
      const items = rows.slice(0, query.limit).reverse();
      const oldest = items[0];
      return { items, ...(rows.length > query.limit && oldest ? { nextBefore: oldest.id } : {}) };
    },

    /** Every message of the chat, oldest first (export). */
    async allMessages(caller: ChatCaller, chatId: string): Promise<MessageRow[]> {
      return db
        .select(messageColumns)
        .from(messages)
        .where(and(eq(messages.chatId, chatId), ownChat(caller, chatId)))
        .orderBy(asc(messages.createdAt), asc(messages.id));
    },

    async findMessage(
      caller: ChatCaller,
      chatId: string,
      messageId: string,
    ): Promise<MessageRow | undefined> {
      const [row] = await db
        .select(messageColumns)
        .from(messages)
        .where(and(eq(messages.id, messageId), eq(messages.chatId, chatId), ownChat(caller, chatId)))
        .limit(1);
      return row;
    },

    /** The newest message of the chat: the tip of the branch the user last worked on. */
    async latestMessage(caller: ChatCaller, chatId: string): Promise<MessageRow | undefined> {
      const [row] = await db
        .select(messageColumns)
        .from(messages)
        .where(and(eq(messages.chatId, chatId), ownChat(caller, chatId)))
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(1);
      return row;
    },

    /**
     * Stores messages (a question and its empty answer, or either alone) with what they do to
     * their chat — create it, or mark its activity and set new params or a first title — in one
     * statement: atomic, one round trip. Undefined when the chat is not the owner's (any more).
     * Answers the chat as stored.
     */
    async insertExchange(chat: ExchangeChat, rows: readonly NewMessage[]): Promise<ChatRow | undefined> {
      const at = (rows.at(-1)?.createdAt ?? new Date()).toISOString();
      const values = sql.join(
        rows
          .map(toRow)
          .map(
            (r) =>
              sql`(${r.id}, ${r.chatId}, ${r.parentId}::text, ${r.role}, ${r.content}, ${r.status}, ${r.model}::text, ${JSON.stringify(r.attachmentIds)}::jsonb, ${r.createdAt.toISOString()}::timestamptz)`,
          ),
        sql`, `,
      );
      const write =
        chat.kind === 'create'
          ? sql`insert into ${chats} (id, user_id, domain_id, agent_id, title, params, created_at, updated_at)
              values (${chat.id}, ${chat.owner.user.id}, ${chat.owner.domain.id}, ${chat.agentId}::text, ${chat.title},
                      ${JSON.stringify(chat.params)}::jsonb, ${at}::timestamptz, ${at}::timestamptz)
              returning *`
          : sql`update ${chats} set updated_at = ${at}::timestamptz${
              chat.params ? sql`, params = ${JSON.stringify(chat.params)}::jsonb` : sql``
            }${chat.title ? sql`, title = case when title = '' then ${chat.title} else title end` : sql``}
              where ${chats.id} = ${chat.id}${chat.owner ? sql` and ${ownChats(chat.owner)}` : sql``}
              returning *`;
      const result = await db.execute(sql`
        with c as (${write}),
        m as (
          insert into ${messages} (id, chat_id, parent_id, role, content, status, model, attachment_ids, created_at, updated_at)
          select v.id, v.chat_id, v.parent_id, v.role, v.content, v.status, v.model, v.attachment_ids, v.created_at, v.created_at
            from (values ${values}) as v(id, chat_id, parent_id, role, content, status, model, attachment_ids, created_at)
           where exists (select 1 from c)
        )
        select * from c`);
      const [row] = rowsOf<Record<string, unknown>>(result);
      return row ? chatRowOf(row) : undefined;
    },

    async findAttachments(
      caller: ChatCaller,
      chatId: string,
      ids: readonly string[],
    ): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(attachments)
        .where(
          and(
            inArray(attachments.id, [...ids]),
            eq(attachments.chatId, chatId),
            eq(attachments.userId, chatOwnerId(caller)),
            ownChat(caller, chatId),
          ),
        );
    },

    /** The caller's latest `max` attachments of a chat of theirs still stored, newest first. */
    async latestAttachments(caller: ChatCaller, chatId: string, max: number): Promise<AttachmentRow[]> {
      return db
        .select()
        .from(attachments)
        .where(
          and(
            eq(attachments.chatId, chatId),
            eq(attachments.userId, chatOwnerId(caller)),
            isNull(attachments.removedAt),
            ownChat(caller, chatId),
          ),
        )
        .orderBy(desc(attachments.createdAt))
        .limit(max);
    },

    /** The caller's attachments among `ids`, whatever live chat of theirs they belong to. */
    async findOwnAttachments(caller: ChatCaller, ids: readonly string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db
        .select({ attachment: attachments })
        .from(attachments)
        .innerJoin(chats, eq(chats.id, attachments.chatId))
        .where(
          and(
            inArray(attachments.id, [...ids]),
            eq(attachments.userId, chatOwnerId(caller)),
            // A file retention removed is gone for models and tools too.
            isNull(attachments.removedAt),
            ownChats(caller),
          ),
        )
        .then((rows) => rows.map((r) => r.attachment));
    },

    /** Attachments referenced by `rows`, keyed by id (message pages and exports). */
    async attachmentsOf(caller: ChatCaller, chatId: string, rows: readonly MessageRow[]) {
      const ids = [...new Set(rows.flatMap((r) => r.attachmentIds))];
      const found = await this.findAttachments(caller, chatId, ids);
      return new Map(found.map((a) => [a.id, a]));
    },

    async insertAttachment(
      tx: Tx,
      caller: ChatCaller,
      row: Omit<typeof attachments.$inferInsert, 'userId' | 'domainId'>,
    ) {
      const [inserted] = await tx
        .insert(attachments)
        .values({ ...row, userId: chatOwnerId(caller), domainId: caller.domain.id })
        .returning();
      return inserted!;
    },

    /** Deletes an attachment no message refers to yet; undefined when there is none such. */
    async deleteUnsentAttachment(
      caller: ChatCaller,
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
              eq(attachments.userId, chatOwnerId(caller)),
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
              // A question's file, or one an answer's tool made (a chart, an image).
              or(
                sql`${messages.attachmentIds} @> ${JSON.stringify([attachmentId])}::jsonb`,
                sql`${messages.parts} @> ${JSON.stringify([{ files: [{ attachmentId }] }])}::jsonb`,
              ),
            ),
          )
          .limit(1);
        if (used) return 'referenced';
        await tx.delete(attachments).where(eq(attachments.id, attachmentId));
        return row;
      });
    },

    // ---- The agents websocket's writer: ids it already checked through a caller-scoped call. ----

    /** Ends a streaming answer; on one already ended it changes nothing and answers it as it is. */
    async streamFinish(
      messageId: string,
      patch: {
        status: MessageStatus;
        content?: string;
        usage?: MessageUsage | null;
        error?: string | null;
        errorCode?: ErrorCode | null;
        errorReason?: ProviderFailure | null;
        model?: string | null;
        citations?: Citation[] | null;
        attachmentReadings?: AttachmentReading[] | null;
        parts?: MessagePart[] | null;
        usedMemory?: boolean;
      },
      at: Date,
    ): Promise<MessageRow | undefined> {
      // Only the first end counts (a stop racing the natural end must not overwrite it). The chat's
      // activity is the user's last message (touched when it was stored), not the answer's end.
      // Its streamed pieces go in the same statement: folded into the text (unless the final text
      // is given, which holds them), never left behind.
      const pieces = db
        .$with('pieces')
        .as(db.delete(messageChunks).where(eq(messageChunks.messageId, messageId)).returning());
      const [row] = await db
        .with(pieces)
        .update(messages)
        .set({ ...patch, content: patch.content ?? streamedContent, updatedAt: at })
        .where(and(eq(messages.id, messageId), eq(messages.status, 'streaming')))
        .returning();
      if (row) return row;
      const [current] = await db
        .select(messageColumns)
        .from(messages)
        .where(eq(messages.id, messageId))
        .limit(1);
      return current;
    },

    /**
     * The branch root → leaf in one round trip: `leafId`, or the chat's newest message when null
     * (the tip of the branch the user last worked on). Empty when there is no such message.
     * The chat's messages are read whole and walked here: the rows off the branch are the user's
     * own regenerations and edits, and a recursive query cost twice as much as reading them.
     */
    async streamBranchTo(chatId: string, leafId: string | null): Promise<ContextRow[]> {
      // Oldest first (the chat's own index order), so the newest message is the last row.
      const rows = await chatContext.execute({ chatId });
      const byId = new Map(rows.map((r) => [r.id, r]));
      const leaf = leafId === null ? rows.at(-1) : byId.get(leafId);
      const out: ContextRow[] = [];
      for (let r = leaf; r && out.length <= rows.length; r = r.parentId ? byId.get(r.parentId) : undefined) {
        out.push(r);
      }
      return out.reverse();
    },
  };
}

export type ChatsStore = ReturnType<typeof chatsStore>;
