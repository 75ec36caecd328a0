import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { domains, users } from '../../db/schema/index.ts';

/**
 * The accounts directory: the one named cross-table read other modules use to ask "who is this
 * user, and may they and their domain act?" (docs/ARCHITECTURE.md#table-ownership). The users and
 * domains tables are the accounts module's; code assist and single sign-on read them only here.
 */

export interface UserStanding {
  displayName: string;
  active: boolean;
  domainActive: boolean;
}

async function standingWhere(db: Db | Tx, where: SQL): Promise<UserStanding | undefined> {
  const [row] = await db
    .select({ displayName: users.displayName, active: users.active, domainActive: domains.active })
    .from(users)
    .innerJoin(domains, eq(domains.id, users.domainId))
    .where(where)
    .limit(1);
  return row;
}

/** By the user's id (their email, lower-cased, as accounts stores it). */
export const standingById = (db: Db | Tx, id: string) => standingWhere(db, eq(users.id, id.toLowerCase()));

/** By an address as someone typed or vouched for it, in any case. */
export const standingByEmail = (db: Db | Tx, email: string) =>
  standingWhere(db, sql`lower(${users.email}) = lower(${email})`);
