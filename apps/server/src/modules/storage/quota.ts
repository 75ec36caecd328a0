import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { quotaExceeded } from './errors.ts';
import { storageUsage } from './usage.ts';

/**
 * Throws 402 when the domain has no room for `incoming` more bytes (by default: no room left at
 * all), checked before reading an upload.
 */
export async function assertRoomLeft(ctx: AppContext, domainId: string, incoming = 0): Promise<void> {
  const used = await storageUsage(ctx.db, domainId);
  if (used >= ctx.config.STORAGE_QUOTA_BYTES || used + incoming > ctx.config.STORAGE_QUOTA_BYTES) {
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
