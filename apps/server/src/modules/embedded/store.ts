import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { embeddedUsage, embeddedVisitors, virtualAccounts } from '../../db/schema/index.ts';

export type VirtualAccountRow = typeof virtualAccounts.$inferSelect;
export type VirtualAccountInsert = typeof virtualAccounts.$inferInsert;
/** Whatever an Admin may change: an embed keeps its id and domain, and the store sets the timestamps. */
export type VirtualAccountPatch = Partial<
  Omit<VirtualAccountRow, 'id' | 'domainId' | 'createdAt' | 'updatedAt'>
>;

export interface UsageCounts {
  visitors: number;
  chats: number;
  messages: number;
}

const STATS_DAYS = 30;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * SQL for embeds. Admin-side functions take the domain the service already checked the caller may
 * act on and filter by it, so a row of another domain is never read or written through them.
 */
export function virtualAccountsStore(db: Db | Tx) {
  return {
    list(domainId: string): Promise<VirtualAccountRow[]> {
      return db
        .select()
        .from(virtualAccounts)
        .where(eq(virtualAccounts.domainId, domainId))
        .orderBy(asc(sql`lower(${virtualAccounts.displayName}) collate "C"`), asc(virtualAccounts.id));
    },

    async find(domainId: string, id: string): Promise<VirtualAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(virtualAccounts)
        .where(and(eq(virtualAccounts.domainId, domainId), eq(virtualAccounts.id, id)))
        .limit(1);
      return row;
    },

    /** Any domain's embed: for visitors, who reach it by id alone (the service checks the rest). */
    async findById(id: string): Promise<VirtualAccountRow | undefined> {
      const [row] = await db.select().from(virtualAccounts).where(eq(virtualAccounts.id, id)).limit(1);
      return row;
    },

    /** The domain an embed belongs to, whatever the caller: a SuperAdmin acts on any. */
    async domainOf(id: string): Promise<string | undefined> {
      const [row] = await db
        .select({ domainId: virtualAccounts.domainId })
        .from(virtualAccounts)
        .where(eq(virtualAccounts.id, id))
        .limit(1);
      return row?.domainId;
    },

    async insert(values: VirtualAccountInsert): Promise<VirtualAccountRow> {
      const [row] = await db.insert(virtualAccounts).values(values).returning();
      if (!row) throw new Error('insert returned nothing');
      return row;
    },

    async update(
      domainId: string,
      id: string,
      patch: VirtualAccountPatch,
    ): Promise<VirtualAccountRow | undefined> {
      const [row] = await db
        .update(virtualAccounts)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(virtualAccounts.domainId, domainId), eq(virtualAccounts.id, id)))
        .returning();
      return row;
    },

    async remove(domainId: string, id: string): Promise<VirtualAccountRow | undefined> {
      const [row] = await db
        .delete(virtualAccounts)
        .where(and(eq(virtualAccounts.domainId, domainId), eq(virtualAccounts.id, id)))
        .returning();
      return row;
    },

    /** The ids of an embed's visitors. */
    async visitorIds(virtualAccountId: string): Promise<string[]> {
      const rows = await db
        .select({ id: embeddedVisitors.visitorId })
        .from(embeddedVisitors)
        .where(eq(embeddedVisitors.virtualAccountId, virtualAccountId));
      return rows.map((r) => r.id);
    },

    /** Visitors seen and chats and messages of the last 30 days, per embed of `ids`. */
    async usage(ids: readonly string[], now = new Date()): Promise<Map<string, UsageCounts>> {
      const out = new Map<string, UsageCounts>();
      if (ids.length === 0) return out;
      for (const id of ids) out.set(id, { visitors: 0, chats: 0, messages: 0 });
      const since = new Date(now.getTime() - STATS_DAYS * 86_400_000);
      const inIds = sql`in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`;
      const [visitors, usage] = await Promise.all([
        db
          .select({ id: embeddedVisitors.virtualAccountId, n: sql<number>`count(*)::int` })
          .from(embeddedVisitors)
          .where(
            and(sql`${embeddedVisitors.virtualAccountId} ${inIds}`, gte(embeddedVisitors.lastSeenAt, since)),
          )
          .groupBy(embeddedVisitors.virtualAccountId),
        db
          .select({
            id: embeddedUsage.virtualAccountId,
            chats: sql<number>`coalesce(sum(${embeddedUsage.chats}), 0)::int`,
            messages: sql<number>`coalesce(sum(${embeddedUsage.messages}), 0)::int`,
          })
          .from(embeddedUsage)
          .where(and(sql`${embeddedUsage.virtualAccountId} ${inIds}`, gte(embeddedUsage.day, dayOf(since))))
          .groupBy(embeddedUsage.virtualAccountId),
      ]);
      for (const v of visitors) out.get(v.id)!.visitors = Number(v.n);
      for (const u of usage) {
        const row = out.get(u.id)!;
        row.chats = Number(u.chats);
        row.messages = Number(u.messages);
      }
      return out;
    },

    /** Records a visitor as seen now; a signed visitor's name and email are refreshed. */
    async touchVisitor(v: {
      virtualAccountId: string;
      visitorId: string;
      displayName: string;
      email: string | null;
      signed: boolean;
    }): Promise<void> {
      const now = new Date();
      await db
        .insert(embeddedVisitors)
        .values({ ...v, createdAt: now, lastSeenAt: now })
        .onConflictDoUpdate({
          target: [embeddedVisitors.virtualAccountId, embeddedVisitors.visitorId],
          set: v.signed
            ? { lastSeenAt: now, displayName: v.displayName, email: v.email }
            : { lastSeenAt: now },
        });
    },

    /** Adds to today's counts of an embed (a chat started, a message sent). */
    async count(virtualAccountId: string, what: { chats?: number; messages?: number }, now = new Date()) {
      const chats = what.chats ?? 0;
      const messages = what.messages ?? 0;
      await db
        .insert(embeddedUsage)
        .values({ virtualAccountId, day: dayOf(now), chats, messages })
        .onConflictDoUpdate({
          target: [embeddedUsage.virtualAccountId, embeddedUsage.day],
          set: {
            chats: sql`${embeddedUsage.chats} + ${chats}`,
            messages: sql`${embeddedUsage.messages} + ${messages}`,
          },
        });
    },
  };
}

export type VirtualAccountsStore = ReturnType<typeof virtualAccountsStore>;
