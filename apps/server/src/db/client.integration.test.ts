import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { emptyPostgresDatabase } from '../test/db.ts';
import { connectionLost, openDatabase, rowsOf } from './client.ts';
import { PGliteThread } from './pglite-thread.ts';

describe('migrations', () => {
  it('run on PGlite and leave every table in place', async () => {
    const db = await openDatabase({});
    const rows = await db.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    const names = (rows as unknown as { rows: Array<{ table_name: string }> }).rows.map((r) => r.table_name);
    expect(names).toEqual(
      expect.arrayContaining([
        'users',
        'domains',
        'departments',
        'identity_accounts',
        'identity_sessions',
        'refresh_tokens',
      ]),
    );
    // The search indexes merge their pending entries 64 kB at a time (PGlite has no autovacuum).
    const gin = await db.db.execute(
      sql`select relname, reloptions from pg_class where relname in ('chats_title_fold_search_idx', 'messages_content_fold_search_idx') order by 1`,
    );
    expect((gin as unknown as { rows: unknown[] }).rows).toEqual([
      { relname: 'chats_title_fold_search_idx', reloptions: ['gin_pending_list_limit=64'] },
      { relname: 'messages_content_fold_search_idx', reloptions: ['gin_pending_list_limit=64'] },
    ]);
    await db.close();
  });

  // Only in the PostgreSQL test project (CI), so it never shows up as skipped.
  if (process.env.TEST_DATABASE_URL && process.env.TEST_DB === 'postgres')
    it('are safe when replicas start at once on PostgreSQL (advisory lock) and idempotent on restart', async () => {
      const { url, drop } = await emptyPostgresDatabase(process.env.TEST_DATABASE_URL!);
      try {
        const replicas = await Promise.all([1, 2, 3].map(() => openDatabase({ url, poolSize: 2 })));
        await Promise.all(replicas.map((r) => r.close()));
        const again = await openDatabase({ url, poolSize: 2 });
        const res = await again.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
        // Each migration recorded once, however many replicas raced to apply it.
        const journal = JSON.parse(
          readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8'),
        ) as { entries: unknown[] };
        expect((res as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(journal.entries.length);
        await again.close();
      } finally {
        await drop();
      }
    });

  if (process.env.TEST_DATABASE_URL && process.env.TEST_DB === 'postgres')
    it('a connection the server ends between two statements of a transaction fails the transaction, not the process', async () => {
      const { url, drop } = await emptyPostgresDatabase(process.env.TEST_DATABASE_URL!);
      const opened = await openDatabase({ url, poolSize: 2 });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const failed = await opened.db
          .transaction(async (tx) => {
            const res = await tx.execute(sql`select pg_backend_pid() as pid`);
            const pid = (res as unknown as { rows: Array<{ pid: number }> }).rows[0]?.pid;
            await admin.query('select pg_terminate_backend($1)', [pid]);
            // The gap a transaction has between statements (its caller's own work): the
            // connection's end arrives here, with no statement of its own to fail. Unheard, pg
            // throws it out of the process and vitest reports it as an uncaught error.
            await new Promise((r) => setTimeout(r, 300));
            await tx.execute(sql`select 1`);
          })
          .then(
            () => false,
            () => true,
          );
        expect(failed).toBe(true);
        // The pool dropped the dead connection: the next statements run.
        for (let i = 0; i < 3; i++) await opened.db.execute(sql`select 1`);
      } finally {
        await admin.end();
        await opened.close();
        await drop();
      }
    });
});

// Needs a PostgreSQL server (TEST_DATABASE_URL, as CI sets it); shows as skipped without one.
describe('the embedded database on disk', () => {
  it('is reopened on a fresh thread after a start that created it, and serves from there', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-reopen-'));
    const open = vi.spyOn(PGliteThread, 'open');
    try {
      const first = await openDatabase({ dataDir });
      // Created and migrated on one thread, served by another: the first one's memory is gone.
      expect(open).toHaveBeenCalledTimes(2);
      await first.db.execute(sql`create table probe (n int)`);
      await first.db.execute(sql`insert into probe values (7)`);
      // The session settings are the serving connection's.
      expect(rowsOf(await first.db.execute(sql`show hnsw.ef_search`))).toEqual([{ 'hnsw.ef_search': '100' }]);
      await first.close();

      open.mockClear();
      const again = await openDatabase({ dataDir });
      // Nothing to migrate: one thread.
      expect(open).toHaveBeenCalledTimes(1);
      expect(rowsOf(await again.db.execute(sql`select n from probe`))).toEqual([{ n: 7 }]);
      await again.close();
    } finally {
      open.mockRestore();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Three openings of a database on disk, the first creating it.
  }, 120_000);

  it('stays on its thread for an admin command, which exits once done', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-reopen-'));
    const open = vi.spyOn(PGliteThread, 'open');
    try {
      const admin = await openDatabase({ dataDir, holder: 'admin' });
      expect(open).toHaveBeenCalledTimes(1);
      await admin.close();
    } finally {
      open.mockRestore();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('a statement on a dead connection', () => {
  it('counts pg refusing it unsent, on a client it saw close, as a lost connection (retried)', async () => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await client.end();
    const err: unknown = await client.query('select 1').catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/is not queryable/);
    expect(connectionLost(err)).toBe(true);
    // A statement the server refused is no lost connection: it is not run again.
    const refused = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await refused.connect();
    const bad: unknown = await refused.query('select * from no_such_table').catch((e: unknown) => e);
    await refused.end();
    expect(connectionLost(bad)).toBe(false);
  });
});
