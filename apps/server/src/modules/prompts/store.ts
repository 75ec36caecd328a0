import type { PromptScope } from '@assistente/contracts';
import { and, asc, count, desc, eq, inArray, lte, ne, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { FOLD_FROM, FOLD_TO, prompts, promptVersions } from '../../db/schema/index.ts';
import { escapeLike, type KeyedPage, keyedPage } from '../../lib/paging.ts';

export type PromptRow = typeof prompts.$inferSelect;
export type PromptVersionRow = typeof promptVersions.$inferSelect;

/** Who reads: the person, their domain and their department (what `seesPrompt` looks at). */
export interface PromptViewer {
  userId: string;
  domainId: string;
  departmentId: string | null;
}

/** The fields a version holds: what a change or a restore writes. */
export interface PromptFields {
  title: string;
  command: string;
  content: string;
  scope: PromptScope;
  departmentId: string | null;
}

/**
 * Whose commands a prompt's must differ from: the author's private prompts, the department's, or
 * the domain's.
 */
export interface CommandOwner {
  domainId: string;
  scope: PromptScope;
  /** The author of a private prompt, the department of a department prompt; unused for the domain. */
  owner: string;
}

export const PROMPTS_CURSOR_TAG = 'prompts:scope:title';

/** Private first, then department, then domain: the picker's order. */
const scopeRank = sql<string>`(case ${prompts.scope} when 'private' then '0' when 'department' then '1' else '2' end)`;

/** Accents and case folded the same way on both sides, so PGlite and PostgreSQL agree (db/schema/chats.ts). */
const folded = (value: SQLWrapper) =>
  sql`lower(translate(${value}, ${sql.raw(`'${FOLD_FROM}'`)}, ${sql.raw(`'${FOLD_TO}'`)}))`;

/** The rows `seesPrompt` (packages/contracts/src/policies.ts) lets a viewer see, as SQL. */
function visibleTo(v: PromptViewer): SQL | undefined {
  return and(
    eq(prompts.domainId, v.domainId),
    or(
      eq(prompts.userId, v.userId),
      eq(prompts.scope, 'domain'),
      v.departmentId === null
        ? undefined
        : and(eq(prompts.scope, 'department'), eq(prompts.departmentId, v.departmentId)),
    ),
  );
}

function ownedBy(o: CommandOwner): SQL | undefined {
  return and(
    eq(prompts.domainId, o.domainId),
    eq(prompts.scope, o.scope),
    o.scope === 'private' ? eq(prompts.userId, o.owner) : undefined,
    o.scope === 'department' ? eq(prompts.departmentId, o.owner) : undefined,
  );
}

/**
 * SQL over `prompts` and `prompt_versions`. Reads take the domain (or the viewer) the service
 * checked: a row of another domain is never read or written.
 */
export function promptsStore(db: Db | Tx) {
  return {
    /** A page of what the viewer sees, by scope then title; `q` matches title or command. */
    async list(
      v: PromptViewer,
      f: { q?: string; scope?: PromptScope; limit: number; after?: [string, string, string] },
    ): Promise<KeyedPage<PromptRow>> {
      const pattern = f.q ? `%${escapeLike(f.q)}%` : undefined;
      const filter = and(
        visibleTo(v),
        f.scope ? eq(prompts.scope, f.scope) : undefined,
        pattern
          ? or(
              sql`${folded(prompts.title)} like ${folded(sql`${pattern}`)} escape '\\'`,
              sql`${folded(prompts.command)} like ${folded(sql`${pattern}`)} escape '\\'`,
            )
          : undefined,
      );
      const after = f.after
        ? sql`(${scopeRank}, ${prompts.title}, ${prompts.id}) > (${f.after[0]}, ${f.after[1]}, ${f.after[2]})`
        : undefined;
      const [rows, totals] = await Promise.all([
        db
          .select({ row: prompts, rank: scopeRank })
          .from(prompts)
          .where(and(filter, after))
          .orderBy(scopeRank, asc(prompts.title), asc(prompts.id))
          .limit(f.limit + 1),
        db.select({ n: count() }).from(prompts).where(filter),
      ]);
      return keyedPage(
        rows,
        f.limit,
        totals[0]?.n ?? 0,
        (r) => [r.rank, r.row.title, r.row.id],
        (r) => r.row,
      );
    },

    async find(domainId: string, id: string): Promise<PromptRow | undefined> {
      const [row] = await db
        .select()
        .from(prompts)
        .where(and(eq(prompts.domainId, domainId), eq(prompts.id, id)))
        .limit(1);
      return row;
    },

    /** The row again inside a change's transaction, locked against a concurrent change. */
    async findForUpdate(domainId: string, id: string): Promise<PromptRow | undefined> {
      const [row] = await db
        .select()
        .from(prompts)
        .where(and(eq(prompts.domainId, domainId), eq(prompts.id, id)))
        .for('update');
      return row;
    },

    /**
     * Serialises changes to one owner's commands until the transaction ends, so two requests cannot
     * both find a command free and both take it (the table has no unique index over the scopes).
     */
    async lockCommands(o: CommandOwner): Promise<void> {
      await db.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`prompts:${o.domainId}:${o.scope}:${o.owner}`}))`,
      );
    },

    async commandTaken(o: CommandOwner, command: string, exceptId?: string): Promise<boolean> {
      const [row] = await db
        .select({ id: prompts.id })
        .from(prompts)
        .where(and(ownedBy(o), eq(prompts.command, command), exceptId ? ne(prompts.id, exceptId) : undefined))
        .limit(1);
      return row !== undefined;
    },

    /** A new prompt and its first version. */
    async insert(
      values: { id: string; domainId: string; userId: string } & PromptFields,
    ): Promise<PromptRow> {
      const [row] = await db
        .insert(prompts)
        .values({ ...values, version: 1 })
        .returning();
      if (!row) throw new Error('insert returned nothing');
      await db
        .insert(promptVersions)
        .values({ promptId: row.id, version: 1, userId: values.userId, ...fieldsOf(row) });
      return row;
    },

    /**
     * The prompt's next version, written by `userId`: the row changes, a version row is added, and
     * versions beyond the newest `keep` are dropped.
     */
    async addVersion(
      current: PromptRow,
      userId: string,
      fields: PromptFields,
      keep: number,
    ): Promise<PromptRow> {
      const version = current.version + 1;
      const [row] = await db
        .update(prompts)
        .set({ ...fields, version, updatedAt: new Date() })
        .where(and(eq(prompts.domainId, current.domainId), eq(prompts.id, current.id)))
        .returning();
      if (!row) throw new Error('update returned nothing');
      await db.insert(promptVersions).values({ promptId: row.id, version, userId, ...fieldsOf(row) });
      await db
        .delete(promptVersions)
        .where(and(eq(promptVersions.promptId, row.id), lte(promptVersions.version, version - keep)));
      return row;
    },

    /** Removes the prompt; its versions go with it (foreign key cascade). */
    async remove(domainId: string, id: string): Promise<boolean> {
      const gone = await db
        .delete(prompts)
        .where(and(eq(prompts.domainId, domainId), eq(prompts.id, id)))
        .returning({ id: prompts.id });
      return gone.length > 0;
    },

    /** Every kept version of a prompt the service found, newest first. */
    versions(promptId: string): Promise<PromptVersionRow[]> {
      return db
        .select()
        .from(promptVersions)
        .where(eq(promptVersions.promptId, promptId))
        .orderBy(desc(promptVersions.version));
    },

    async version(promptId: string, version: number): Promise<PromptVersionRow | undefined> {
      const [row] = await db
        .select()
        .from(promptVersions)
        .where(and(eq(promptVersions.promptId, promptId), eq(promptVersions.version, version)))
        .limit(1);
      return row;
    },

    /** The prompts a person wrote, any scope, by title, with their kept versions (their export). */
    async authoredBy(userId: string): Promise<Array<{ prompt: PromptRow; versions: PromptVersionRow[] }>> {
      const rows = await db
        .select()
        .from(prompts)
        .where(eq(prompts.userId, userId))
        .orderBy(asc(prompts.title));
      const versions = rows.length
        ? await db
            .select()
            .from(promptVersions)
            .where(
              inArray(
                promptVersions.promptId,
                rows.map((r) => r.id),
              ),
            )
            .orderBy(desc(promptVersions.version))
        : [];
      return rows.map((prompt) => ({ prompt, versions: versions.filter((v) => v.promptId === prompt.id) }));
    },

    /**
     * An erased person's prompts: their private ones deleted, their department and domain ones
     * handed to `heir`, and the versions they wrote left without an author.
     */
    async handOver(userId: string, heir: string): Promise<{ deleted: number; handedOver: number }> {
      const deleted = await db
        .delete(prompts)
        .where(and(eq(prompts.userId, userId), eq(prompts.scope, 'private')))
        .returning({ id: prompts.id });
      const handed = await db
        .update(prompts)
        .set({ userId: heir })
        .where(eq(prompts.userId, userId))
        .returning({ id: prompts.id });
      await db.update(promptVersions).set({ userId: '' }).where(eq(promptVersions.userId, userId));
      return { deleted: deleted.length, handedOver: handed.length };
    },
  };
}

export type PromptsStore = ReturnType<typeof promptsStore>;

const fieldsOf = (row: PromptRow) => ({
  scope: row.scope,
  title: row.title,
  command: row.command,
  content: row.content,
});
