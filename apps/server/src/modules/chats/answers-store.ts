import { and, eq, sql } from 'drizzle-orm';
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
