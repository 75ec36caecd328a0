import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase } from '../test/db.ts';

const MIGRATIONS = new URL('./migrations/', import.meta.url).pathname;
const RENAME = '0019_santitos_table';

/** The migrations as they stood before the rename: a copy whose journal stops short of it. */
function migrationsBeforeRename(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === RENAME);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

type Exec = (query: string) => Promise<Array<Record<string, unknown>>>;

/** A domain, a santito of it and a chat with it, stored while the table was still called `agents`. */
async function seedBeforeRename(exec: Exec): Promise<void> {
  await exec(`insert into domains (id, display_name, creator) values ('d1', 'D', '{}'::jsonb)`);
  await exec(`insert into agents (id, domain_id, author_id, name) values ('s1', 'd1', 'u1', 'Santito')`);
  await exec(
    `insert into users (id, email, display_name, domain_id, department_id, creator, eula) values ('u1', 'u1@x.test', 'U', 'd1', 'none', '{}'::jsonb, '{}'::jsonb)`,
  );
  await exec(`insert into chats (id, user_id, domain_id, agent_id) values ('c1', 'u1', 'd1', 's1')`);
}

async function expectRenamedWithData(exec: Exec): Promise<void> {
  expect(await exec(`select to_regclass('public.agents') as t`)).toEqual([{ t: null }]);
  expect(await exec(`select id, name from santitos`)).toEqual([{ id: 's1', name: 'Santito' }]);
  const constraints = await exec(
    `select conname from pg_constraint where contype in ('p', 'f') and (conname like '%santitos%' or conname like '%agents%') order by 1`,
  );
  expect(constraints.map((c) => c.conname)).toEqual([
    'chats_agent_id_santitos_id_fk',
    'santitos_department_id_departments_id_fk',
    'santitos_domain_id_domains_id_fk',
    'santitos_pkey',
    'virtual_accounts_agent_id_santitos_id_fk',
  ]);
  // The foreign keys still act: deleting the santito leaves its chat without one.
  await exec(`delete from santitos where id = 's1'`);
  expect(await exec(`select agent_id from chats where id = 'c1'`)).toEqual([{ agent_id: null }]);
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the santitos table rename (migration 0019)', () => {
  it('keeps the rows of `agents` on PGlite, and running it again changes nothing', async () => {
    const before = migrationsBeforeRename();
    dirs.push(before);
    const client = new PGlite();
    const db = drizzlePglite({ client });
    const exec: Exec = async (q) => (await client.query<Record<string, unknown>>(q)).rows;
    await migratePglite(db, { migrationsFolder: before });
    await seedBeforeRename(exec);
    await migratePglite(db, { migrationsFolder: MIGRATIONS });
    // Idempotent: the statements once more, on the renamed table, neither fail nor change it.
    await client.exec(readFileSync(path.join(MIGRATIONS, `${RENAME}.sql`), 'utf8'));
    await expectRenamedWithData(exec);
    await client.close();
  });

  // Only in the PostgreSQL test project, so it never shows up as skipped.
  if (process.env.TEST_DATABASE_URL && process.env.TEST_DB === 'postgres')
    it('keeps the rows of `agents` on PostgreSQL', async () => {
      const before = migrationsBeforeRename();
      dirs.push(before);
      const { url, drop } = await emptyPostgresDatabase(process.env.TEST_DATABASE_URL!);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const db = drizzlePg(client);
        const exec: Exec = async (q) => (await client.query<Record<string, unknown>>(q)).rows;
        await migratePg(db, { migrationsFolder: before });
        await seedBeforeRename(exec);
        await migratePg(db, { migrationsFolder: MIGRATIONS });
        await db.execute(sql.raw(readFileSync(path.join(MIGRATIONS, `${RENAME}.sql`), 'utf8')));
        await expectRenamedWithData(exec);
      } finally {
        await client.end();
        await drop();
      }
    });
});
