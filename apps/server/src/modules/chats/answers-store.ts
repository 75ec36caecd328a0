import type { MessagePart } from '@assistente/contracts';
import { and, eq, lt, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { chats, messageChunks, messages, streamedContent } from '../../db/schema/index.ts';

/** What one flush writes for one answer: its text from offset `at` on, and whether to mark it alive. */
export interface StreamingPiece {
  id: string;
  at: number;
  text: string;
  touch?: boolean;
}

/**
 * SQL of the streaming answers, for the generation worker of the agents module (through
 * `chats/answers.ts`). Ids here come from caller-scoped calls of the chats service, or from the
 * sweep itself.
 */
export function answersStore(db: Db) {
  return {
    /** Answers of a chat still marked as generating. */
    async streamingIds(chatId: string): Promise<string[]> {
      const rows = await db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.chatId, chatId), eq(messages.status, 'streaming')));
      return rows.map((r) => r.id);
    },

    /**
     * One statement for every answer streaming on this process: appends each one's new text as a
     * piece (`messageChunks`) and touches those due a heartbeat, so the cost follows the token rate,
     * not the answers' length or number of statements. Answers already ended are left alone.
     */
    async saveStreaming(batch: readonly StreamingPiece[]): Promise<void> {
      if (batch.length === 0) return;
      // One JSON parameter, however many answers: a thousand-row VALUES list built through the
      // query builder cost more than the write itself.
      await db.execute(sql`
        with v as (
          select p.* from json_to_recordset(${JSON.stringify(batch)}::json) as p(id text, at int, text text, touch boolean)
            join ${messages} on ${messages.id} = p.id and ${messages.status} = 'streaming'
        ),
        touched as (
          update ${messages} set updated_at = now() from v where v.touch and ${messages.id} = v.id
        )
        insert into ${messageChunks} (message_id, at, text)
        select v.id, v.at, v.text from v where v.text <> ''
        on conflict (message_id, at) do update set text = excluded.text`);
    },

    /**
     * Takes a paused answer up again (its tool call decided): back to `streaming` with its parts as
     * decided. Only one taker wins, whatever the replica; the others get nothing.
     */
    async resume(messageId: string, parts: MessagePart[]) {
      const [row] = await db
        .update(messages)
        .set({ status: 'streaming', parts, updatedAt: new Date() })
        .where(and(eq(messages.id, messageId), eq(messages.status, 'awaiting_approval')))
        .returning();
      return row;
    },

    /** A chat's answers paused on an approval. */
    async awaitingInChat(chatId: string) {
      return db
        .select()
        .from(messages)
        .where(and(eq(messages.chatId, chatId), eq(messages.status, 'awaiting_approval')));
    },

    /** A paused answer's parts as decided so far, if it is still paused. */
    async setAwaitingParts(messageId: string, parts: MessagePart[]): Promise<boolean> {
      const [row] = await db
        .update(messages)
        .set({ parts })
        .where(and(eq(messages.id, messageId), eq(messages.status, 'awaiting_approval')))
        .returning({ id: messages.id });
      return row !== undefined;
    },

    /** Answers paused on an approval since before `before`, with their owners. */
    async awaitingSince(before: Date) {
      return db
        .select({
          messageId: messages.id,
          chatId: messages.chatId,
          parts: messages.parts,
          userId: chats.userId,
        })
        .from(messages)
        .innerJoin(chats, eq(chats.id, messages.chatId))
        .where(and(eq(messages.status, 'awaiting_approval'), lt(messages.updatedAt, before)))
        .limit(500);
    },

    /** Ends a paused answer with `parts` as given, if it is still paused. */
    async endAwaiting(messageId: string, parts: MessagePart[], error: { message: string; code: string }) {
      const [row] = await db
        .update(messages)
        .set({ status: 'error', parts, error: error.message, errorCode: error.code, updatedAt: new Date() })
        .where(and(eq(messages.id, messageId), eq(messages.status, 'awaiting_approval')))
        .returning({ id: messages.id });
      return row !== undefined;
    },

    /** The tools the chat's owner allowed for the rest of the chat. */
    async allowedTools(chatId: string): Promise<string[]> {
      const [row] = await db
        .select({ tools: chats.allowedTools })
        .from(chats)
        .where(eq(chats.id, chatId))
        .limit(1);
      return row?.tools ?? [];
    },

    async allowTool(chatId: string, ref: string): Promise<void> {
      await db
        .update(chats)
        .set({ allowedTools: sql`${chats.allowedTools} || ${JSON.stringify([ref])}::jsonb` })
        .where(and(eq(chats.id, chatId), sql`not ${chats.allowedTools} @> ${JSON.stringify([ref])}::jsonb`));
    },

    /**
     * Ends answers whose generation died with its process (no heartbeat since `before`), so none
     * stays "streaming" forever, their stored pieces folded into their text. Returns them with their
     * owners, to tell their sockets.
     */
    async sweepStale(
      before: Date,
      error: string,
    ): Promise<Array<{ messageId: string; chatId: string; userId: string; content: string }>> {
      const result = await db.execute(sql`
        with stale as (
          update ${messages}
             set status = 'error', error = ${error}, error_code = 'UNAVAILABLE', updated_at = now(),
                 content = ${streamedContent}
           where ${messages.status} = 'streaming' and ${messages.updatedAt} < ${before.toISOString()}::timestamptz
          returning ${messages.id} as id, ${messages.chatId} as chat_id, ${messages.content} as content
        ),
        folded as (delete from ${messageChunks} using stale where ${messageChunks.messageId} = stale.id)
        select stale.id as "messageId", stale.chat_id as "chatId", stale.content, ${chats.userId} as "userId"
          from stale join ${chats} on ${chats.id} = stale.chat_id`);
      return rowsOf(result);
    },
  };
}

export type AnswersStore = ReturnType<typeof answersStore>;
