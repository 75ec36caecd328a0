// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs each
// statement synchronously, so on the main thread every statement held up every socket. Here it
// runs beside them; the main thread talks to it through `PGliteThread`.

import { PGlite, type QueryOptions, type Results, type Transaction, types } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { workerSide } from '../lib/ts-worker.ts';
import type {
  DbReply,
  DbRequest,
  DbWorkerData,
  SerializedDbError,
  SerializedResults,
} from './pglite-thread.ts';

const { port, data } = workerSide<DbWorkerData>('pglite-worker.ts');

const raw = (value: unknown) => value;
/** Date and time types left as PostgreSQL wrote them (what drizzle asks for; it parses them itself). */
const RAW_DATES: QueryOptions['parsers'] = {
  [types.TIMESTAMP]: raw,
  [types.TIMESTAMPTZ]: raw,
  [types.INTERVAL]: raw,
  [types.DATE]: raw,
  1231: raw,
  1115: raw,
  1185: raw,
  1187: raw,
  1182: raw,
};

function serialize(err: unknown): SerializedDbError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const out: SerializedDbError = { name: err.name, message: err.message };
  for (const key of [
    'code',
    'detail',
    'hint',
    'constraint',
    'table',
    'column',
    'schema',
    'severity',
  ] as const) {
    const value = (err as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

const reply = (message: DbReply) => port.postMessage(message);

const plain = (r: Results): SerializedResults => ({
  rows: r.rows as SerializedResults['rows'],
  fields: r.fields,
  affectedRows: r.affectedRows,
});

/** Open transactions: their statements, how to end them (true: commit), and their outcome. */
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }>();

/** Answers request `id` with what `work` gives, or the error it throws. */
function answer(id: number, work: () => Promise<Omit<DbReply & { type: 'result' }, 'type' | 'id'>>): void {
  work().then(
    (ok) => reply({ type: 'result', id, ...ok }),
    (err: unknown) => reply({ type: 'result', id, error: serialize(err) }),
  );
}

/**
 * PostgreSQL's default 128 MB of shared buffers was most of an idle server's memory (≈ 115 MiB more
 * resident than 32 MB) and slowed its start; the embedded database's files are read through the
 * operating system's page cache anyway. 16 MB (2,048 pages) and room for 8 connections (PGlite is
 * one) took another ≈ 25 MiB off an idle server (docs/ARCHITECTURE.md#build-and-run). Start
 * parameters, not `postgresqlconf`: that option rewrites the data directory's postgresql.conf.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'max_connections=8'];

async function main(): Promise<void> {
  // pgvector, for knowledge retrieval's HNSW index (see db/vectors.ts): created by the database
  // set-up, not by a migration, since a PostgreSQL server may lack it.
  // One options object: PGlite reads its second argument only when the first is a directory, so
  // the in-memory database (tests) got neither option before.
  const db = new PGlite({
    ...(data.dataDir ? { dataDir: data.dataDir } : {}),
    startParams: START_PARAMS,
    extensions: { vector },
  });
  try {
    await db.waitReady;
  } catch (err) {
    reply({ type: 'failed', error: serialize(err) });
    return;
  }

  /** Where a statement runs: the database, or the open transaction it belongs to. */
  const on = (tx: number | undefined) => {
    const target = tx === undefined ? db : open.get(tx)?.tx;
    if (!target) throw new Error('Transaction is closed');
    return target;
  };

  port.on('message', (m: DbRequest) => {
    switch (m.type) {
      case 'query':
        return answer(m.id, async () => {
          const options: QueryOptions = {
            ...(m.rowMode ? { rowMode: m.rowMode } : {}),
            ...(m.rawDates ? { parsers: RAW_DATES } : {}),
          };
          return { result: plain(await on(m.tx).query(m.sql, m.params, options)) };
        });
      case 'exec':
        return answer(m.id, async () => ({ results: (await on(m.tx).exec(m.sql)).map(plain) }));
      case 'begin':
        // Answered once the transaction is open; it then holds PGlite (other statements wait)
        // until an `end` request settles it.
        return answer(
          m.id,
          () =>
            new Promise((opened, failed) => {
              const done = db.transaction(async (tx) => {
                const commit = await new Promise<boolean>((end) => {
                  open.set(m.tx, { tx, end, done });
                  opened({});
                });
                if (!commit && !tx.closed) await tx.rollback();
              });
              done.catch(failed).finally(() => open.delete(m.tx));
            }),
        );
      case 'end':
        return answer(m.id, async () => {
          const t = open.get(m.tx);
          if (!t) throw new Error('Transaction is closed');
          t.end(m.commit);
          await t.done;
          return {};
        });
      case 'close':
        return answer(m.id, async () => {
          await db.close();
          return {};
        });
    }
  });
  reply({ type: 'ready' });
}

void main();
