import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { domains, users } from '../../db/schema/index.ts';
import type { DomainRow, UserRow } from '../../lib/caller.ts';

/**
 * What the embedded module needs of accounts' tables (docs/ARCHITECTURE.md#table-ownership): an
 * embed's domain, and its visitors' user rows (`type: 'visitor'`; their chats hang on them).
 * Functions over an executor, so deleting an embed removes its visitors in its own transaction.
 */

/** Any domain, by id: a visitor reaches an embed by id alone, the caller checks the rest. */
export async function findDomainById(db: Db | Tx, id: string): Promise<DomainRow | undefined> {
  const [row] = await db.select().from(domains).where(eq(domains.id, id)).limit(1);
  return row;
}

/** A visitor's row, made on their first session; later sessions refresh the display name. */
export async function storeVisitorUser(
  db: Db | Tx,
  v: { email: string; displayName: string; domain: Pick<DomainRow, 'id' | 'eulaVersion'>; embedName: string },
): Promise<UserRow> {
  const now = new Date();
  const [row] = await db
    .insert(users)
    .values({
      id: v.email,
      email: v.email,
      displayName: v.displayName,
      domainId: v.domain.id,
      departmentId: '',
      role: 'Viewer',
      type: 'visitor',
      active: true,
      creator: { name: v.embedName, email: '' },
      eula: {
        accept: true,
        timestamp: now.toISOString(),
        version: v.domain.eulaVersion,
        pendingRevision: false,
        pendingTimestamp: null,
        isPrivacyPolicy: true,
      },
    })
    .onConflictDoUpdate({ target: users.id, set: { displayName: v.displayName, updatedAt: now } })
    .returning();
  if (!row) throw new Error('visitor row could not be stored');
  return row;
}

export async function findVisitorUser(db: Db | Tx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, email)).limit(1);
  return row;
}

/** Deletes visitors' rows (their chats go with them), 500 at a time. */
export async function deleteVisitorUsers(db: Db | Tx, emails: readonly string[]): Promise<void> {
  for (let i = 0; i < emails.length; i += 500) {
    const slice = emails.slice(i, i + 500);
    await db.delete(users).where(and(eq(users.type, 'visitor'), inArray(users.id, slice)));
  }
}
