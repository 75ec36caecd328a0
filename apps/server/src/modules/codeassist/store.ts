import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { authCodes } from '../../db/schema/index.ts';
import { standingById } from '../accounts/directory.ts';

export type AuthCodeRow = typeof authCodes.$inferSelect;

/** Written into minted_session_id by a replay, so an exchange still in flight sees it. */
const REPLAYED = '!replayed';

export function codeassistStore(db: Db) {
  return {
    async insertCode(row: {
      codeHash: string;
      uid: string;
      codeChallenge: string;
      redirectUri: string;
      expiresAt: Date;
    }): Promise<void> {
      await db.insert(authCodes).values(row);
    },

    /** Consumes the code atomically: only the first caller gets the row back. */
    async consume(codeHash: string): Promise<AuthCodeRow | undefined> {
      const [row] = await db
        .update(authCodes)
        .set({ consumedAt: new Date() })
        .where(and(eq(authCodes.codeHash, codeHash), isNull(authCodes.consumedAt)))
        .returning();
      return row;
    },

    /**
     * Marks a consumed code as replayed. Answers the session its first exchange minted, if any;
     * an exchange that has not recorded its session yet will find the mark and undo itself.
     */
    async markReplayed(codeHash: string): Promise<{ found: boolean; mintedSessionId?: string }> {
      const [row] = await db
        .update(authCodes)
        .set({ mintedSessionId: sql`coalesce(${authCodes.mintedSessionId}, ${REPLAYED})` })
        .where(eq(authCodes.codeHash, codeHash))
        .returning({ minted: authCodes.mintedSessionId });
      if (!row) return { found: false };
      return row.minted && row.minted !== REPLAYED
        ? { found: true, mintedSessionId: row.minted }
        : { found: true };
    },

    /** Records the minted session; false when a replay got there first. */
    async recordMinted(codeHash: string, sessionId: string): Promise<boolean> {
      const rows = await db
        .update(authCodes)
        .set({ mintedSessionId: sessionId })
        .where(and(eq(authCodes.codeHash, codeHash), isNull(authCodes.mintedSessionId)))
        .returning({ codeHash: authCodes.codeHash });
      return rows.length === 1;
    },

    /** Keeps a day of used codes for replay detection, then forgets them. */
    async purgeOld(now: Date): Promise<void> {
      await db.delete(authCodes).where(lt(authCodes.expiresAt, new Date(now.getTime() - 24 * 3600_000)));
    },

    /** The stored user behind an email with its domain's state (for the exchange-time check). */
    async findUserState(email: string): Promise<{ active: boolean; domainActive: boolean } | undefined> {
      const row = await standingById(db, email);
      return row && { active: row.active, domainActive: row.domainActive };
    },
  };
}
