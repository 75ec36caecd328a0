import { and, eq, isNotNull, sum } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { attachments, knowledgeDocuments, santitos } from '../../db/schema/index.ts';

/*
 * The storage quota's one named cross-table read (docs/ARCHITECTURE.md#table-ownership): what a domain
 * stores is spread over the tables of chats (attachments), santitos (avatars) and knowledge
 * (uploads), and the quota must sum them in the transaction that holds its lock, so it reads them
 * here rather than asking three services.
 */

/** Bytes a domain stores: chat attachments, uploaded santito avatars and knowledge uploads. */
export async function storageUsage(db: Db | Tx, domainId: string): Promise<number> {
  const [files, avatars, knowledge] = await Promise.all([
    db
      .select({ n: sum(attachments.size) })
      .from(attachments)
      .where(eq(attachments.domainId, domainId)),
    db
      .select({ n: sum(santitos.avatarSize) })
      .from(santitos)
      .where(eq(santitos.domainId, domainId)),
    db
      .select({ n: sum(knowledgeDocuments.size) })
      .from(knowledgeDocuments)
      .where(and(eq(knowledgeDocuments.domainId, domainId), isNotNull(knowledgeDocuments.storageKey))),
  ]);
  return Number(files[0]?.n ?? 0) + Number(avatars[0]?.n ?? 0) + Number(knowledge[0]?.n ?? 0);
}
