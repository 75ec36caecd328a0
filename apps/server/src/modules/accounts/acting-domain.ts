import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { domains } from '../../db/schema/index.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { domainNotFound } from './errors.ts';
import { actingDomain } from './policy.ts';

/**
 * The domain an administrative call acts on (`actingDomain`), which must exist when a SuperAdmin
 * names another one: settings of a domain that is not there would be unreachable rows.
 * The caller's right to manage it is the calling module's policy, checked before.
 */
export async function existingActingDomain(
  db: Db | Tx,
  caller: UserCaller,
  requested: string | undefined,
): Promise<string> {
  const want = actingDomain(caller, requested);
  if (want === caller.domain.id) return want;
  const [row] = await db.select({ id: domains.id }).from(domains).where(eq(domains.id, want)).limit(1);
  if (!row) throw domainNotFound();
  return want;
}
