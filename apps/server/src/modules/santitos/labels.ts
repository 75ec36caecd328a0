import { and, eq, inArray } from 'drizzle-orm';
import { santitos } from '../../db/schema/index.ts';
import type { SantitosState } from './state.ts';

/**
 * Names of the santitos of `domainId` among `ids`, in one query, for reports that list ids
 * (docs/ARCHITECTURE.md#usage-prices-and-budgets). A system read: the caller was checked already.
 */
export async function santitoNames(s: SantitosState, domainId: string, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await s.ctx.db
    .select({ id: santitos.id, name: santitos.name })
    .from(santitos)
    .where(and(eq(santitos.domainId, domainId), inArray(santitos.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
}
