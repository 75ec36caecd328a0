import {
  administeredDomains,
  administersDomain,
  isAdmin,
  type Role,
  type SortOrder,
  spansDomains,
  type UserSortField,
} from '@assistente/contracts';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { departments, domains, users } from '../../db/schema/index.ts';
import type { DomainRow, UserCaller, UserRow } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import { escapeLike, type KeyedPage, keyedPage } from '../../lib/paging.ts';
import { actor } from '../../lib/policy.ts';
import type { DepartmentRow } from './dto.ts';

export type Executor = Db | Tx;

/**
 * Rows a caller may see (`seesUser` in contracts' policies, as SQL): themselves, and the people of
 * every domain they administer. Built from `administeredDomains`, not from a second reading of the
 * roles; `user-scope.test.ts` holds the two together.
 */
export function userScope(caller: UserCaller): SQL | undefined {
  const self = eq(users.id, caller.user.id);
  const administered = administeredDomains(actor(caller));
  if (administered.length === 0) return self;
  // Embeds' visitors own their chats through a row of their own; they are nobody's users to read,
  // change or delete (the embed manages them).
  const people = ne(users.type, 'visitor');
  if (administered === 'all') return people;
  return and(people, or(inArray(users.domainId, administered), self));
}

/** Domains a caller may see: their own; a SuperAdmin, every one. */
function domainScope(
  caller: UserCaller,
  column: typeof domains.id | typeof departments.domainId | typeof users.domainId,
): SQL | undefined {
  return spansDomains(caller) ? undefined : eq(column, caller.domain.id);
}

/** Writes to a domain's users or departments: an Admin's own domain, or any for a SuperAdmin. */
function assertManages(caller: UserCaller, domainId: string): void {
  if (!administersDomain(actor(caller), domainId)) throw forbidden();
}

export type UserPatch = Partial<
  Pick<UserRow, 'active' | 'displayName' | 'domainId' | 'departmentId' | 'role' | 'type' | 'eula' | 'locale'>
>;
export type UserInsert = Pick<
  UserRow,
  'id' | 'email' | 'displayName' | 'domainId' | 'departmentId' | 'role' | 'creator' | 'eula'
>;
export type DomainPatch = Partial<
  Pick<DomainRow, 'displayName' | 'cnpj' | 'premium' | 'isTrusted' | 'active' | 'eulaVersion' | 'timeZone'>
>;
export type DomainInsert = Pick<
  DomainRow,
  'id' | 'displayName' | 'cnpj' | 'premium' | 'isTrusted' | 'creator'
>;
export type DepartmentPatch = Partial<Pick<DepartmentRow, 'displayName' | 'active'>>;

/** `role` sorts by rank, so "Admins first" means what it says. */
const roleRank = sql`(case ${users.role} when 'Viewer' then 0 when 'Editor' then 1 when 'Admin' then 2 else 3 end)`;

/** Each user sort: the expression, and the SQL type its cursor value is read back as. */
const USER_SORTS: Record<UserSortField, { expr: SQL | PgColumn; cast: 'text' | 'int' | 'timestamptz' }> = {
  displayName: { expr: users.displayName, cast: 'text' },
  // The id is the lowercased email: unique, so it is its own tie-break.
  email: { expr: users.id, cast: 'text' },
  role: { expr: roleRank, cast: 'int' },
  createdAt: { expr: users.createdAt, cast: 'timestamptz' },
};

export const userCursorTag = (sort: UserSortField, order: SortOrder) => `users:${sort}:${order}`;
export const DOMAIN_CURSOR_TAG = 'domains:displayName:asc';
export const DEPARTMENT_CURSOR_TAG = 'departments:displayName:asc';

export interface UserListFilter {
  /** Only honoured for a SuperAdmin; an Admin always lists their own domain. */
  requestedDomain?: string;
  q?: string;
  role?: Role;
  active?: boolean;
  departmentId?: string;
  sort: UserSortField;
  order: SortOrder;
  limit: number;
  /** `[sortValue::text, id]` of the previous page's last row. */
  after?: [string, string];
}

/**
 * Keyset page: `(sortKey, id)` strictly after the cursor in the requested direction, so a deep
 * page costs what the first does (an index range scan, no OFFSET).
 */
function keysetAfter(
  expr: SQL | PgColumn,
  id: PgColumn,
  cast: string,
  order: SortOrder,
  key: [string, string],
): SQL {
  const op = sql.raw(order === 'asc' ? '>' : '<');
  return sql`(${expr}, ${id}) ${op} (cast(${key[0]} as ${sql.raw(cast)}), ${key[1]})`;
}

/** A keyed page (its query reads `limit + 1` rows) and the total of its filter, read at once. */
async function pageWithTotal<R, T>(
  rows: PromiseLike<R[]>,
  total: PromiseLike<Array<{ n: number }>>,
  limit: number,
  keyOf: (row: R) => readonly string[],
  map: (row: R) => T,
): Promise<KeyedPage<T>> {
  const [page, totals] = await Promise.all([rows, total]);
  return keyedPage(page, limit, totals[0]?.n ?? 0, keyOf, map);
}

/** The domain and department lists: by (displayName, id), keyset after the cursor. */
function pageByDisplayName<R extends { displayName: string; id: string }>(
  db: Executor,
  table: typeof domains | typeof departments,
  filter: SQL | undefined,
  limit: number,
  cursor: [string, string] | undefined,
): Promise<KeyedPage<R>> {
  const after = cursor ? keysetAfter(table.displayName, table.id, 'text', 'asc', cursor) : undefined;
  return pageWithTotal(
    db
      .select()
      .from(table)
      .where(and(filter, after))
      .orderBy(asc(table.displayName), asc(table.id))
      .limit(limit + 1) as PromiseLike<R[]>,
    db.select({ n: count() }).from(table).where(filter),
    limit,
    (r) => [r.displayName, r.id],
    (r) => r,
  );
}

const orderBy = (order: SortOrder, ...cols: Array<SQL | PgColumn>) =>
  cols.map((c) => (order === 'asc' ? asc(c) : desc(c)));

/** Every query here takes the caller first and applies its tenant scope itself. */
export function accountsStore(db: Executor) {
  return {
    // ── users ──────────────────────────────────────────────────────────────────────────────

    async findUser(
      caller: UserCaller,
      id: string,
      opts: { lock?: boolean } = {},
    ): Promise<UserRow | undefined> {
      const q = db
        .select()
        .from(users)
        .where(and(eq(users.id, id), userScope(caller)))
        .limit(1);
      const [row] = opts.lock ? await q.for('update') : await q;
      return row;
    },

    /**
     * Whether any user, in any domain, has this id. Deliberately unscoped (ids are emails, unique
     * across the instance): only answers yes or no, never the row.
     */
    async userIdTaken(_caller: UserCaller, id: string): Promise<boolean> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
      return row !== undefined;
    },

    /** Updates within the caller's scope; undefined when the row is not (or no longer) visible. */
    async updateUser(caller: UserCaller, id: string, patch: UserPatch): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(users.id, id), userScope(caller)))
        .returning();
      return row;
    },

    /** Inserts a user into a domain the caller manages; undefined when the id is taken. */
    async insertUser(caller: UserCaller, values: UserInsert): Promise<UserRow | undefined> {
      assertManages(caller, values.domainId);
      const [row] = await db.insert(users).values(values).onConflictDoNothing().returning();
      return row;
    },

    async deleteUser(caller: UserCaller, id: string): Promise<UserRow | undefined> {
      const [row] = await db
        .delete(users)
        .where(and(eq(users.id, id), userScope(caller), ne(users.id, caller.user.id)))
        .returning();
      return row;
    },

    /** A page of users in the caller's scope; see `UserListFilter`. */
    async listUsers(caller: UserCaller, f: UserListFilter): Promise<KeyedPage<UserRow>> {
      const domainId = spansDomains(caller) ? f.requestedDomain : isAdmin(caller) ? caller.domain.id : null;
      if (domainId === null) return { items: [], total: 0 };
      const pattern = f.q ? `%${escapeLike(f.q)}%` : undefined;
      const filter = and(
        // Embeds' visitors own their chats through a row of their own; they are nobody's users.
        ne(users.type, 'visitor'),
        domainId === undefined ? undefined : eq(users.domainId, domainId),
        pattern ? or(ilike(users.displayName, pattern), ilike(users.email, pattern)) : undefined,
        f.role ? eq(users.role, f.role) : undefined,
        f.active === undefined ? undefined : eq(users.active, f.active),
        f.departmentId ? eq(users.departmentId, f.departmentId) : undefined,
      );
      const sort = USER_SORTS[f.sort];
      const after = f.after ? keysetAfter(sort.expr, users.id, sort.cast, f.order, f.after) : undefined;
      return pageWithTotal(
        db
          .select({ row: users, key: sql<string>`(${sort.expr})::text` })
          .from(users)
          .where(and(filter, after))
          .orderBy(...orderBy(f.order, sort.expr, users.id))
          .limit(f.limit + 1),
        db.select({ n: count() }).from(users).where(filter),
        f.limit,
        (r) => [r.key, r.row.id],
        (r) => r.row,
      );
    },

    /** How many users a domain (or one of its departments) still has, within the caller's reach. */
    async countUsers(
      caller: UserCaller,
      where: { domainId: string; departmentId?: string },
    ): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(users)
        .where(
          and(
            eq(users.domainId, where.domainId),
            where.departmentId ? eq(users.departmentId, where.departmentId) : undefined,
            domainScope(caller, users.domainId),
          ),
        );
      return row?.n ?? 0;
    },

    /** Active SuperAdmins other than `exceptId`: the instance must keep at least one. */
    async countOtherActiveSuperAdmins(_caller: UserCaller, exceptId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, 'SuperAdmin'), eq(users.active, true), ne(users.id, exceptId)));
      return row?.n ?? 0;
    },

    // ── domains ────────────────────────────────────────────────────────────────────────────

    /** Display names of `domainId`'s users and departments among the ids given (others are absent). */
    async namesIn(
      domainId: string,
      ids: { userIds: readonly string[]; departmentIds: readonly string[] },
    ): Promise<{ users: Map<string, string>; departments: Map<string, string> }> {
      const [u, d] = await Promise.all([
        ids.userIds.length === 0
          ? []
          : db
              .select({ id: users.id, name: users.displayName })
              .from(users)
              .where(and(eq(users.domainId, domainId), inArray(users.id, [...ids.userIds]))),
        ids.departmentIds.length === 0
          ? []
          : db
              .select({ id: departments.id, name: departments.displayName })
              .from(departments)
              .where(
                and(eq(departments.domainId, domainId), inArray(departments.id, [...ids.departmentIds])),
              ),
      ]);
      return {
        users: new Map(u.map((r) => [r.id, r.name])),
        departments: new Map(d.map((r) => [r.id, r.name])),
      };
    },

    /**
     * The people (never embeds' visitors) of an export's subject in `domainId`: one person, or a
     * department's, by name. The caller was checked when the export was asked for.
     */
    async peopleIn(
      domainId: string,
      subject: { userId: string } | { departmentId: string },
    ): Promise<UserRow[]> {
      return db
        .select()
        .from(users)
        .where(
          and(
            eq(users.domainId, domainId),
            ne(users.type, 'visitor'),
            'userId' in subject ? eq(users.id, subject.userId) : eq(users.departmentId, subject.departmentId),
          ),
        )
        .orderBy(asc(users.displayName), asc(users.id));
    },

    /** Puts the person under legal hold or lifts it, within the caller's scope. */
    async setLegalHold(caller: UserCaller, id: string, hold: boolean): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ legalHold: hold, updatedAt: new Date() })
        .where(and(eq(users.id, id), userScope(caller)))
        .returning();
      return row;
    },

    /** The ids of a domain's people on legal hold (retention keeps what is theirs). */
    async heldUsers(domainId: string): Promise<string[]> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.domainId, domainId), eq(users.legalHold, true)));
      return rows.map((r) => r.id);
    },

    /** The IANA zone of a domain's days (usage reports and budget periods); undefined for no such domain. */
    async domainTimeZone(id: string): Promise<string | undefined> {
      const [row] = await db
        .select({ zone: domains.timeZone })
        .from(domains)
        .where(eq(domains.id, id))
        .limit(1);
      return row?.zone;
    },

    async findDomain(
      caller: UserCaller,
      id: string,
      opts: { lock?: boolean } = {},
    ): Promise<DomainRow | undefined> {
      const q = db
        .select()
        .from(domains)
        .where(and(eq(domains.id, id), domainScope(caller, domains.id)))
        .limit(1);
      const [row] = opts.lock ? await q.for('update') : await q;
      return row;
    },

    /** Everyone sees their own domain; a SuperAdmin every one. Ordered by (displayName, id). */
    async listDomains(
      caller: UserCaller,
      f: { q?: string; active?: boolean; limit: number; after?: [string, string] },
    ): Promise<KeyedPage<DomainRow>> {
      const pattern = f.q ? `%${escapeLike(f.q)}%` : undefined;
      const filter = and(
        domainScope(caller, domains.id),
        pattern ? or(ilike(domains.displayName, pattern), ilike(domains.id, pattern)) : undefined,
        f.active === undefined ? undefined : eq(domains.active, f.active),
      );
      return pageByDisplayName<DomainRow>(db, domains, filter, f.limit, f.after);
    },

    /** SuperAdmin only; undefined when the id is taken. */
    async insertDomain(caller: UserCaller, values: DomainInsert): Promise<DomainRow | undefined> {
      if (!spansDomains(caller)) throw forbidden();
      const [row] = await db.insert(domains).values(values).onConflictDoNothing().returning();
      return row;
    },

    /** SuperAdmin: any field; an Admin: only their own domain's settings (`eulaVersion`). */
    async updateDomain(caller: UserCaller, id: string, patch: DomainPatch): Promise<DomainRow | undefined> {
      // An Admin changes their domain's settings (terms version, time zone), a SuperAdmin anything.
      const settingsOnly = Object.keys(patch).every((k) => k === 'eulaVersion' || k === 'timeZone');
      if (!spansDomains(caller) && !(settingsOnly && administersDomain(actor(caller), id))) throw forbidden();
      const [row] = await db
        .update(domains)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(domains.id, id), domainScope(caller, domains.id)))
        .returning();
      return row;
    },

    /** SuperAdmin only: the domain and its departments (the service checked it has no users). */
    async deleteDomain(caller: UserCaller, id: string): Promise<DomainRow | undefined> {
      if (!spansDomains(caller)) throw forbidden();
      await db.delete(departments).where(eq(departments.domainId, id));
      const [row] = await db.delete(domains).where(eq(domains.id, id)).returning();
      return row;
    },

    /** After a new EULA version: every user of the domain must accept again. */
    async markEulaPending(caller: UserCaller, domainId: string, at: Date): Promise<number> {
      assertManages(caller, domainId);
      const rows = await db
        .update(users)
        .set({
          eula: sql`${users.eula} || jsonb_build_object('pendingRevision', true, 'pendingTimestamp', ${at.toISOString()}::text)`,
          updatedAt: at,
        })
        .where(eq(users.domainId, domainId))
        .returning({ id: users.id });
      return rows.length;
    },

    // ── departments ────────────────────────────────────────────────────────────────────────

    async findDepartment(
      caller: UserCaller,
      domainId: string,
      id: string,
    ): Promise<DepartmentRow | undefined> {
      const [row] = await db
        .select()
        .from(departments)
        .where(
          and(
            eq(departments.id, id),
            eq(departments.domainId, domainId),
            domainScope(caller, departments.domainId),
          ),
        )
        .limit(1);
      return row;
    },

    /** A department in the caller's reach, by id alone; `lock` holds it until the transaction ends. */
    async findDepartmentById(
      caller: UserCaller,
      id: string,
      opts: { lock?: 'share' | 'update' } = {},
    ): Promise<DepartmentRow | undefined> {
      const q = db
        .select()
        .from(departments)
        .where(and(eq(departments.id, id), domainScope(caller, departments.domainId)))
        .limit(1);
      const [row] = opts.lock ? await q.for(opts.lock) : await q;
      return row;
    },

    /** Another department of the domain with the same name, case-insensitively. */
    async findDepartmentByName(
      caller: UserCaller,
      domainId: string,
      displayName: string,
      exceptId?: string,
    ): Promise<DepartmentRow | undefined> {
      const [row] = await db
        .select()
        .from(departments)
        .where(
          and(
            eq(departments.domainId, domainId),
            sql`lower(${departments.displayName}) = lower(${displayName})`,
            exceptId ? ne(departments.id, exceptId) : undefined,
            domainScope(caller, departments.domainId),
          ),
        )
        .limit(1);
      return row;
    },

    /**
     * A page of departments ordered by (displayName, id). Only a SuperAdmin may name another
     * domain; for everyone else `requestedDomain` is ignored and their own domain is listed.
     */
    async listDepartments(
      caller: UserCaller,
      query: { requestedDomain?: string; limit: number; after?: [string, string]; q?: string },
    ): Promise<KeyedPage<DepartmentRow>> {
      const domainId = spansDomains(caller) ? (query.requestedDomain ?? caller.domain.id) : caller.domain.id;
      const filter = and(
        eq(departments.domainId, domainId),
        query.q ? ilike(departments.displayName, `%${escapeLike(query.q)}%`) : undefined,
      );
      return pageByDisplayName<DepartmentRow>(db, departments, filter, query.limit, query.after);
    },

    async insertDepartment(
      caller: UserCaller,
      values: Pick<DepartmentRow, 'id' | 'domainId' | 'displayName'>,
    ): Promise<DepartmentRow> {
      assertManages(caller, values.domainId);
      const [row] = await db.insert(departments).values(values).returning();
      if (!row) throw new Error('insert into departments returned nothing');
      return row;
    },

    async updateDepartment(
      caller: UserCaller,
      id: string,
      patch: DepartmentPatch,
    ): Promise<DepartmentRow | undefined> {
      const [row] = await db
        .update(departments)
        .set({ ...patch, updatedAt: new Date() })
        .where(and(eq(departments.id, id), managedDepartments(caller)))
        .returning();
      return row;
    },

    async deleteDepartment(caller: UserCaller, id: string): Promise<DepartmentRow | undefined> {
      const [row] = await db
        .delete(departments)
        .where(and(eq(departments.id, id), managedDepartments(caller)))
        .returning();
      return row;
    },
  };
}

/** Departments the caller may write: an Admin's own domain's; a SuperAdmin's, all; nobody else's. */
function managedDepartments(caller: UserCaller): SQL | undefined {
  if (spansDomains(caller)) return undefined;
  if (isAdmin(caller)) return eq(departments.domainId, caller.domain.id);
  return sql`false`;
}

export type AccountsStore = ReturnType<typeof accountsStore>;
