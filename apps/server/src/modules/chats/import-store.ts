import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chats, messages } from '../../db/schema/index.ts';
import type { UserCaller } from '../../lib/caller.ts';

/** Rows per insert statement: 10 columns each, well under PostgreSQL's 65,535 parameters. */
const ROWS_PER_INSERT = 1_000;

export interface ImportedChatRow {
  id: string;
  title: string;
  importSource: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ImportedMessageRow {
  id: string;
  parentId: string | null;
  role: 'user' | 'assistant';
  content: string;
  createdAt: Date;
}

/**
 * SQL of the chat import (docs/ARCHITECTURE.md#chat-import), over the chats module's own tables:
 * one conversation is one transaction, the chat and all of its messages, or nothing.
 */
export function importStore(db: Db) {
  return {
    /**
     * Stores a chat of the caller's with its messages, unless the caller already has a chat from
     * the same source (deleted or not): then nothing is written and `existing` names it.
     */
    async insertImported(
      caller: UserCaller,
      chat: ImportedChatRow,
      rows: readonly ImportedMessageRow[],
    ): Promise<{ inserted: true } | { inserted: false; existing: string | null }> {
      return db.transaction(async (tx) => {
        const [made] = await tx
          .insert(chats)
          .values({
            id: chat.id,
            userId: caller.user.id,
            domainId: caller.domain.id,
            agentId: null,
            title: chat.title,
            importSource: chat.importSource,
            createdAt: chat.createdAt,
            updatedAt: chat.updatedAt,
          })
          .onConflictDoNothing({
            target: [chats.userId, chats.importSource],
            where: sql`${chats.importSource} is not null`,
          })
          .returning({ id: chats.id });
        if (!made) {
          const [existing] = await tx
            .select({ id: chats.id })
            .from(chats)
            .where(
              and(
                eq(chats.userId, caller.user.id),
                eq(chats.importSource, chat.importSource),
                isNull(chats.deletedAt),
              ),
            )
            .limit(1);
          return { inserted: false, existing: existing?.id ?? null };
        }
        for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
          await tx.insert(messages).values(
            rows.slice(i, i + ROWS_PER_INSERT).map((m) => ({
              id: m.id,
              chatId: chat.id,
              parentId: m.parentId,
              role: m.role,
              content: m.content,
              status: 'complete' as const,
              createdAt: m.createdAt,
              updatedAt: m.createdAt,
            })),
          );
        }
        return { inserted: true };
      });
    },
  };
}

export type ImportStore = ReturnType<typeof importStore>;
