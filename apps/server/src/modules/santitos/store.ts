import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { santitos } from '../../db/schema/index.ts';
import type { Caller, UserCaller } from '../../lib/caller.ts';
import { escapeLike, type KeyedPage, keyedPage } from '../../lib/paging.ts';
import type { AccountCaller } from '../../lib/policy.ts';
import type { SantitoRow } from './dto.ts';
import { can } from './policy.ts';

/**
 * Santitos a caller may see: in their domain, and visible to the whole domain, to their department,
 * or written by them; an Admin (or above) sees every santito of their domain.
 */
function visibleTo(caller: Caller): SQL {
  const inDomain = eq(santitos.domainId, caller.domain.id);
  // A visitor of an embed belongs to no department and writes nothing: what the whole domain sees.
  if (caller.kind === 'visitor') return and(inDomain, eq(santitos.visibility, 'domain'))!;
  if (can(caller, 'seeAll', null)) return inDomain;
  return and(
    inDomain,
    or(
      eq(santitos.visibility, 'domain'),
      and(eq(santitos.visibility, 'department'), eq(santitos.departmentId, caller.user.departmentId)),
      eq(santitos.authorId, caller.user.id),
    ),
  )!;
}

/** Santitos the caller may change: visible, and theirs unless they are an Admin. */
function editableBy(caller: UserCaller): SQL {
  return can(caller, 'seeAll', null)
    ? visibleTo(caller)
    : and(visibleTo(caller), eq(santitos.authorId, caller.user.id))!;
}

export type SantitoPatch = Partial<
  Pick<
    SantitoRow,
    | 'name'
    | 'tools'
    | 'maxSteps'
    | 'description'
    | 'avatar'
    | 'avatarSize'
    | 'avatarContentType'
    | 'instructions'
    | 'model'
    | 'starters'
    | 'knowledge'
    | 'visibility'
    | 'departmentId'
  >
>;

export function santitosStore(db: Db) {
  return {
    async find(caller: Caller, id: string): Promise<SantitoRow | undefined> {
      const [row] = await db
        .select()
        .from(santitos)
        .where(and(eq(santitos.id, id), eq(santitos.active, true), visibleTo(caller)))
        .limit(1);
      return row;
    },

    /** An active santito of any domain, by id: an embed names its own, checked by whoever asks. */
    async findActive(id: string): Promise<SantitoRow | undefined> {
      const [row] = await db
        .select()
        .from(santitos)
        .where(and(eq(santitos.id, id), eq(santitos.active, true)))
        .limit(1);
      return row;
    },

    /** A page ordered by (name, id). */
    async list(
      caller: AccountCaller,
      query: { limit: number; after?: [string, string]; q?: string },
    ): Promise<KeyedPage<SantitoRow>> {
      const like = query.q ? `%${escapeLike(query.q)}%` : undefined;
      const filter = and(
        visibleTo(caller),
        eq(santitos.active, true),
        like ? or(ilike(santitos.name, like), ilike(santitos.description, like)) : undefined,
      );
      // Case-insensitive, and in byte order so every database (whatever its collation) pages alike.
      const sortName = sql`lower(${santitos.name}) collate "C"`;
      const after = query.after
        ? sql`(${sortName}, ${santitos.id}) > (${query.after[0]}::text collate "C", ${query.after[1]})`
        : undefined;
      const [rows, totals] = await Promise.all([
        db
          .select({ row: santitos, sortKey: sql<string>`lower(${santitos.name})` })
          .from(santitos)
          .where(and(filter, after))
          .orderBy(asc(sortName), asc(santitos.id))
          .limit(query.limit + 1),
        db.select({ n: count() }).from(santitos).where(filter),
      ]);
      return keyedPage(
        rows,
        query.limit,
        totals[0]?.n ?? 0,
        (r) => [r.sortKey, r.row.id],
        (r) => r.row,
      );
    },

    async insert(
      caller: UserCaller,
      values: Omit<SantitoRow, 'domainId' | 'authorId' | 'active' | 'avatarSize' | 'avatarContentType'>,
      tx: Db | Tx = db,
    ): Promise<SantitoRow> {
      const [row] = await tx
        .insert(santitos)
        .values({ ...values, domainId: caller.domain.id, authorId: caller.user.id })
        .returning();
      return row!;
    },

    async update(
      caller: UserCaller,
      id: string,
      patch: SantitoPatch,
      tx: Db | Tx = db,
    ): Promise<SantitoRow | undefined> {
      const [row] = await tx
        .update(santitos)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(santitos.id, id), eq(santitos.active, true), editableBy(caller)))
        .returning();
      return row;
    },

    async remove(caller: UserCaller, id: string, tx: Db | Tx = db): Promise<SantitoRow | undefined> {
      const [row] = await tx
        .delete(santitos)
        .where(and(eq(santitos.id, id), editableBy(caller)))
        .returning();
      return row;
    },
  };
}

export type SantitosStore = ReturnType<typeof santitosStore>;
