import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase } from '../test/db.ts';

const MIGRATIONS = new URL('./migrations/', import.meta.url).pathname;
const LEDGER = '0020_usage_ledger_prices_budgets';

/** The migrations as they stood before the ledger: a copy whose journal stops short of it. */
function migrationsBeforeLedger(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === LEDGER);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

type Exec = (query: string) => Promise<Array<Record<string, unknown>>>;

/** A chat answer with usage and a `/v1` call, stored before the ledger existed (23:30 in São Paulo). */
async function seedBeforeLedger(exec: Exec): Promise<void> {
  await exec(`insert into domains (id, display_name, creator) values ('d1', 'D', '{}'::jsonb)`);
  await exec(
    `insert into users (id, email, display_name, domain_id, department_id, creator, eula) values ('u1', 'u1@x.test', 'U', 'd1', 'dep1', '{}'::jsonb, '{}'::jsonb)`,
  );
  await exec(`insert into chats (id, user_id, domain_id) values ('c1', 'u1', 'd1')`);
  await exec(
    `insert into messages (id, chat_id, role, content, model, usage, created_at) values
      ('q1', 'c1', 'user', 'Hi', null, null, '2026-03-02T02:30:00Z'),
      ('a1', 'c1', 'assistant', 'Hello', 'p:m', '{"inputTokens":12,"outputTokens":30,"totalTokens":42}', '2026-03-02T02:30:00Z')`,
  );
  await exec(
    `insert into api_usage (id, key_id, user_id, domain_id, requested_model, model, stream, status, input_tokens, output_tokens, total_tokens, created_at)
      values ('x1', 'k1', 'u1', 'd1', 'p:m', 'p:m', false, 'complete', 5, 7, 12, '2026-03-02T12:00:00Z')`,
  );
}

async function expectCopied(exec: Exec): Promise<void> {
  const events = await exec(
    `select id, domain_id, department_id, user_id, api_key_id, source, model, input_tokens, output_tokens, cost_micros from usage_events order by id`,
  );
  expect(events).toEqual([
    {
      id: 'api_x1',
      domain_id: 'd1',
      department_id: 'dep1',
      user_id: 'u1',
      api_key_id: 'k1',
      source: 'api',
      model: 'p:m',
      input_tokens: 5,
      output_tokens: 7,
      cost_micros: null,
    },
    {
      id: 'msg_a1',
      domain_id: 'd1',
      department_id: 'dep1',
      user_id: 'u1',
      api_key_id: null,
      source: 'chat',
      model: 'p:m',
      input_tokens: 12,
      output_tokens: 30,
      cost_micros: null,
    },
  ]);
  const days = await exec(
    `select day::text as day, source, calls::int as calls, input_tokens::int as input, output_tokens::int as output, unpriced_calls::int as unpriced from usage_daily order by source`,
  );
  // The days are the domain's (São Paulo): 02:30 UTC on 2 March is still 1 March there.
  expect(days).toEqual([
    { day: '2026-03-02', source: 'api', calls: 1, input: 5, output: 7, unpriced: 1 },
    { day: '2026-03-01', source: 'chat', calls: 1, input: 12, output: 30, unpriced: 1 },
  ]);
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the usage ledger migration (0020)', () => {
  it('copies existing chat answers’ usage and API usage into the ledger and its day roll-ups, on PGlite', async () => {
    const before = migrationsBeforeLedger();
    dirs.push(before);
    const client = new PGlite();
    const db = drizzlePglite({ client });
    const exec: Exec = async (q) => (await client.query<Record<string, unknown>>(q)).rows;
    await migratePglite(db, { migrationsFolder: before });
    await seedBeforeLedger(exec);
    await migratePglite(db, { migrationsFolder: MIGRATIONS });
    await expectCopied(exec);
    await client.close();
  });

  // Only in the PostgreSQL test project, so it never shows up as skipped.
  if (process.env.TEST_DATABASE_URL && process.env.TEST_DB === 'postgres')
    it('copies them on PostgreSQL too', async () => {
      const before = migrationsBeforeLedger();
      dirs.push(before);
      const { url, drop } = await emptyPostgresDatabase(process.env.TEST_DATABASE_URL!);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const db = drizzlePg(client);
        const exec: Exec = async (q) => (await client.query<Record<string, unknown>>(q)).rows;
        await migratePg(db, { migrationsFolder: before });
        await seedBeforeLedger(exec);
        await migratePg(db, { migrationsFolder: MIGRATIONS });
        await expectCopied(exec);
      } finally {
        await client.end();
        await drop();
      }
    });
});
