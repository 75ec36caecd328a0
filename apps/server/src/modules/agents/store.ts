import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chats, messages } from '../../db/schema/index.ts';

/**
 * The agents' own reads and writes on the chats tables: only the streaming lifecycle. Ids here
 * come from caller-scoped calls of the chats service, or from the sweep itself.
 */
export function agentsStore(db: Db) {
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
     * One statement for every answer streaming on this process: appends each one's new text (an
     * empty delta just marks it alive). Only the new text travels, so the cost follows the token
     * rate, not the answers' length; rows already finished are left alone.
     */
    async appendStreaming(batch: ReadonlyArray<{ id: string; delta: string }>): Promise<void> {
      if (batch.length === 0) return;
      // One JSON parameter, however many answers: building a thousand-row VALUES list through
      // the query builder cost more than the update itself.
      await db.execute(sql`
        update ${messages} set content = ${messages.content} || v.delta, updated_at = now()
          from json_to_recordset(${JSON.stringify(batch)}::json) as v(id text, delta text)
         where ${messages.id} = v.id and ${messages.status} = 'streaming'`);
    },

    /**
     * Ends answers whose generation died with its process (no flush or heartbeat since `before`),
     * so none stays "streaming" forever. Returns them with their owners, to tell their sockets.
     */
    async sweepStale(
      before: Date,
      error: string,
    ): Promise<Array<{ messageId: string; chatId: string; userId: string; content: string }>> {
      const rows = await db
        .update(messages)
        .set({ status: 'error', error, errorCode: 'UNAVAILABLE', updatedAt: new Date() })
        .where(and(eq(messages.status, 'streaming'), lt(messages.updatedAt, before)))
        .returning({ messageId: messages.id, chatId: messages.chatId, content: messages.content });
      if (rows.length === 0) return [];
      const owners = await db
        .select({ id: chats.id, userId: chats.userId })
        .from(chats)
        .where(
          inArray(
            chats.id,
            rows.map((r) => r.chatId),
          ),
        );
      const ownerOf = new Map(owners.map((o) => [o.id, o.userId]));
      return rows.flatMap((r) => {
        const userId = ownerOf.get(r.chatId);
        return userId ? [{ ...r, userId }] : [];
      });
    },
  };
}

export type AgentsStore = ReturnType<typeof agentsStore>;
