import { KNOWLEDGE_SOURCE_REF_KIND } from '@assistente/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { santitos } from '../../db/schema/index.ts';
import type { SantitosState } from './state.ts';

/**
 * Which santitos list a knowledge source: the knowledge module asks, to open a cited document to
 * those who may use such a santito (docs/ARCHITECTURE.md#table-ownership).
 */

/** A santito of the domain whose knowledge names the source. */
const listsSource = (domainId: string, sourceId: string) =>
  and(
    eq(santitos.domainId, domainId),
    sql`${santitos.knowledge} @> ${JSON.stringify([{ kind: KNOWLEDGE_SOURCE_REF_KIND, ref: sourceId }])}::jsonb`,
  );

/** Santitos of the domain whose knowledge lists the source (at most 50). */
export async function santitosListing(
  s: SantitosState,
  domainId: string,
  sourceId: string,
): Promise<string[]> {
  const rows = await s.ctx.db
    .select({ id: santitos.id })
    .from(santitos)
    .where(listsSource(domainId, sourceId))
    .limit(50);
  return rows.map((r) => r.id);
}

/** Whether the active santito `agentId` of the domain lists the source. */
export async function santitoLists(
  s: SantitosState,
  domainId: string,
  agentId: string,
  sourceId: string,
): Promise<boolean> {
  const [row] = await s.ctx.db
    .select({ id: santitos.id })
    .from(santitos)
    .where(and(listsSource(domainId, sourceId), eq(santitos.id, agentId), eq(santitos.active, true)))
    .limit(1);
  return Boolean(row);
}
