import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type DataDirLock, type LockHolder, lockDataDir } from './data-dir-lock.ts';
import { PGliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded database's hold on its data directory (none on PostgreSQL or in memory). */
  lock?: DataDirLock;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Any constant shared by every replica: they queue on it while one runs the migrations. */
const MIGRATION_LOCK = 72_616_001;

/** Opens PostgreSQL when a URL is given, otherwise PGlite in `dataDir` (or in memory). */
export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
  /** Who opens an embedded database on disk, for the message another process gets (default server). */
  holder?: LockHolder['by'];
}): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next checkout.
    pool.on('error', (err) => process.emitWarning(`PostgreSQL idle connection error: ${err.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
      lockClient.release();
    }
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  let dir: string | undefined;
  let lock: DataDirLock | undefined;
  if (opts.dataDir) {
    dir = path.join(opts.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    lock = lockDataDir(opts.dataDir, opts.holder ?? 'server');
  }
  // On a thread of its own: PGlite runs each statement synchronously (see pglite-worker.ts).
  const client = await PGliteThread.open(dir).catch((err: unknown) => {
    lock?.release();
    throw err;
  });
  const pgliteDb = drizzlePglite({ client: client as unknown as PGlite, schema });
  // PGlite is a single connection in one process; the lock keeps the same code path as PostgreSQL.
  await pgliteDb.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await migratePglite(pgliteDb, { migrationsFolder });
  } finally {
    await pgliteDb.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
  return {
    db: pgliteDb as unknown as Db,
    kind: 'pglite',
    ...(lock ? { lock } : {}),
    close: () => client.close().finally(() => lock?.release()),
  };
}
