import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client.ts';

/** An empty database of its own on the PostgreSQL server at `base` (TEST_DATABASE_URL), and how to drop it. */
export async function emptyPostgresDatabase(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const onServer = async (statement: string) => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await onServer(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`drop database if exists ${name} with (force)`) };
}

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or — in the
 * `postgres` test project (TEST_DB=postgres) — a new database on TEST_DATABASE_URL, dropped on close.
 */
export async function testDb(): Promise<Database & { url?: string }> {
  const base = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB !== 'postgres' || !base) return openDatabase({});
  const { url, drop } = await emptyPostgresDatabase(base);
  const database = await openDatabase({ url, poolSize: 5 });
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await drop();
    },
  };
}
