import { and, eq, isNotNull, sql, sum } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db, Tx } from '../../db/client.ts';
import { agents, attachments, knowledgeDocuments } from '../../db/schema/index.ts';
import { quotaExceeded } from './errors.ts';

/** Bytes a domain stores: chat attachments, uploaded santito avatars and knowledge uploads. */
export async function storageUsage(db: Db | Tx, domainId: string): Promise<number> {
  const [files, avatars, knowledge] = await Promise.all([
    db
      .select({ n: sum(attachments.size) })
      .from(attachments)
      .where(eq(attachments.domainId, domainId)),
    db
      .select({ n: sum(agents.avatarSize) })
      .from(agents)
      .where(eq(agents.domainId, domainId)),
    db
      .select({ n: sum(knowledgeDocuments.size) })
      .from(knowledgeDocuments)
      .where(and(eq(knowledgeDocuments.domainId, domainId), isNotNull(knowledgeDocuments.storageKey))),
  ]);
  return Number(files[0]?.n ?? 0) + Number(avatars[0]?.n ?? 0) + Number(knowledge[0]?.n ?? 0);
}

/** Throws 402 when the domain has no room left at all (checked before reading an upload). */
export async function assertRoomLeft(ctx: AppContext, domainId: string): Promise<void> {
  if ((await storageUsage(ctx.db, domainId)) >= ctx.config.STORAGE_QUOTA_BYTES) {
    throw quotaExceeded(ctx.config.STORAGE_QUOTA_BYTES);
  }
}

/**
 * Runs `record` (which stores the row that accounts for `bytes`) only if the domain stays within
 * STORAGE_QUOTA_BYTES; else 402. A per-domain advisory lock serialises concurrent uploads, so two
 * of them cannot both squeeze into the last free bytes.
 */
export async function withinQuota<T>(
  ctx: AppContext,
  domainId: string,
  bytes: number,
  record: (tx: Tx) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`storage-quota:${domainId}`}))`);
    const used = await storageUsage(tx, domainId);
    if (used + bytes > ctx.config.STORAGE_QUOTA_BYTES) {
      throw quotaExceeded(ctx.config.STORAGE_QUOTA_BYTES);
    }
    return record(tx);
  });
}
