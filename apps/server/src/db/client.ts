import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type pg from 'pg';
import { type DataDirLock, type LockHolder, lockDataDir } from './data-dir-lock.ts';
import { PGliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';
import { setUpVectors } from './vectors.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded database's hold on its data directory (none on PostgreSQL or in memory). */
  lock?: DataDirLock;
  close(): Promise<void>;
}

/** The rows of a raw `execute`: node-postgres and PGlite both answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  const rows = (result as { rows?: unknown } | undefined)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Any constant shared by every replica: they queue on it while one runs the migrations. */
const MIGRATION_LOCK = 72_616_001;

/**
 * pgvector's HNSW search: a wider beam than the default 40 (retrieval asks for up to ≈ 24 rows after
 * filtering by domain and source), and iterative scans, so filters that drop most of the nearest
 * rows still leave enough.
 */
const VECTOR_SETTINGS = ['set hnsw.ef_search = 100', "set hnsw.iterative_scan = 'relaxed_order'"];

/** Codes of a connection that died (ended by the server, reset), as opposed to a statement refused. */
const CONNECTION_LOST = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  'ECONNRESET',
  'EPIPE',
]);
export const connectionLost = (err: unknown): boolean => {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return (
    (typeof code === 'string' && CONNECTION_LOST.has(code)) ||
    (typeof message === 'string' &&
      // pg refuses a statement, without sending it, on a client it already saw die or close.
      (message.startsWith('Connection terminated') || message.endsWith('and is not queryable')))
  );
};

/**
 * Runs a statement again, on another connection, when its own died under it: a failover or an
 * operator's `pg_terminate_backend` ends every connection of the pool, and the idle ones are found
 * dead only when a statement is sent on them — which then never ran. (Transactions, on a client of
 * their own, fail whole instead.) The pool replaces each dead connection.
 */
function retryLostConnections(pool: pg.Pool, size: number): void {
  type Query = (...args: unknown[]) => Promise<unknown>;
  const query = pool.query.bind(pool) as Query;
  (pool as unknown as { query: Query }).query = async (...args) => {
    // Each failure drops one dead connection: past the pool's size, the next one is new.
    for (let attempt = 0; ; attempt++) {
      try {
        return await query(...args);
      } catch (err) {
        if (attempt > size || !connectionLost(err)) throw err;
      }
    }
  };
}

/**
 * Transactions that give their connection back whatever fails. drizzle's own, on a pool, sends
 * `begin` before its try: when the server ends the connection right then (a failover, an
 * operator's `pg_terminate_backend`), the client is never released, and the pool's `end()` waits
 * for it for ever. Here the connection is taken and given back around drizzle's transaction on
 * that one client — destroyed instead of reused when it died.
 */
function releasingTransactions(
  db: Db,
  pool: pg.Pool,
  drizzlePg: typeof import('drizzle-orm/node-postgres').drizzle,
): void {
  /** A drizzle per pooled client (the pool keeps its clients, so this stays as small as the pool). */
  const onClient = new WeakMap<pg.PoolClient, Db>();
  const transaction: Db['transaction'] = async (run, config) => {
    const client = await pool.connect();
    let released = false;
    try {
      let one = onClient.get(client);
      if (!one) {
        one = drizzlePg(client, { schema }) as unknown as Db;
        onClient.set(client, one);
      }
      return await one.transaction(run, config);
    } catch (err) {
      released = true;
      client.release(connectionLost(err) ? (err as Error) : undefined);
      throw err;
    } finally {
      if (!released) client.release();
    }
  };
  db.transaction = transaction;
}

/** How many migrations the embedded database has applied (−1 before the first). */
async function appliedMigrations(db: ReturnType<typeof drizzlePglite>): Promise<number> {
  try {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
    );
    return row?.n ?? 0;
  } catch {
    return -1;
  }
}

/** Opens PostgreSQL when a URL is given, otherwise PGlite in `dataDir` (or in memory). */
export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
  /** Who opens an embedded database on disk, for the message another process gets (default server). */
  holder?: LockHolder['by'];
}): Promise<Database> {
  if (opts.url) {
    // Loaded only here: a server on the embedded database never loads the PostgreSQL client
    // (docs/ARCHITECTURE.md#build-and-run).
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const size = opts.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: size,
      // pgvector's search settings on every connection (harmless placeholders on a server without
      // it), awaited before the connection's first query: fired from a 'connect' listener they ran
      // beside that query, which pg deprecates.
      onConnect: async (client) => {
        await client.query(VECTOR_SETTINGS.join('; ')).catch(() => {});
      },
    });
    retryLostConnections(pool, size);
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next checkout.
    pool.on('error', (err) => process.emitWarning(`PostgreSQL idle connection error: ${err.message}`));
    // A checked-out connection has no listener of the pool's: one the server ends between two
    // statements of a transaction (a settle's, a hold's) would throw out of the process. Its
    // query fails instead, the transaction is retried by its caller, and the pool drops it.
    pool.on('connect', (client) =>
      client.on('error', (err) => process.emitWarning(`PostgreSQL connection error: ${err.message}`)),
    );
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    releasingTransactions(db, pool, drizzlePg);
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(pool, { schema }), { migrationsFolder });
      await setUpVectors(db);
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
  const open = () =>
    PGliteThread.open(dir).catch((err: unknown) => {
      lock?.release();
      throw err;
    });
  let client = await open();
  let pgliteDb = drizzlePglite({ client: client as unknown as PGlite, schema });
  // PGlite is a single connection in one process; the lock keeps the same code path as PostgreSQL.
  await pgliteDb.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
  // Creating the database and migrating it grow PGlite's WebAssembly memory, which never shrinks,
  // and leave the creation's own instance to a collector an idle thread never runs: a first start
  // held ≈ 850 MB at idle. A server's fresh thread holds only what serving needs
  // (docs/ARCHITECTURE.md#build-and-run); an admin command, which exits once done, and a database in
  // memory (gone with its thread) keep theirs, and need not count migrations.
  const mayReopen = dir !== undefined && (opts.holder ?? 'server') === 'server';
  let vectors: boolean;
  let migrated = false;
  try {
    const before = mayReopen ? await appliedMigrations(pgliteDb) : 0;
    await migratePglite(pgliteDb, { migrationsFolder });
    vectors = await setUpVectors(pgliteDb as unknown as Db);
    if (mayReopen) migrated = (await appliedMigrations(pgliteDb)) !== before;
  } finally {
    await pgliteDb.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
  if (migrated) {
    await client.close();
    client = await open();
    pgliteDb = drizzlePglite({ client: client as unknown as PGlite, schema });
  }
  // One connection: its session settings hold for every later statement.
  if (vectors) {
    for (const setting of VECTOR_SETTINGS) await pgliteDb.execute(sql.raw(setting));
  }
  return {
    db: pgliteDb as unknown as Db,
    kind: 'pglite',
    ...(lock ? { lock } : {}),
    close: () => client.close().finally(() => lock?.release()),
  };
}
