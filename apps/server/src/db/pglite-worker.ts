// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs each
// statement synchronously, so on the main thread every statement held up every socket. Here it
// runs beside them; the main thread talks to it through `PGliteThread`.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction, types } from '@electric-sql/pglite';
import type {
  DbReply,
  DbRequest,
  DbWorkerData,
  SerializedDbError,
  SerializedResults,
} from './pglite-thread.ts';

if (!parentPort) throw new Error('pglite-worker.ts runs as a worker thread');
const port = parentPort;
const { dataDir } = workerData as DbWorkerData;

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

/** Open transactions: their statements, and how to end them (true: commit). */
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();

async function main(): Promise<void> {
  const db = dataDir ? new PGlite(dataDir) : new PGlite();
  try {
    await db.waitReady;
  } catch (err) {
    reply({ type: 'failed', error: serialize(err) });
    return;
  }

  port.on('message', (m: DbRequest) => {
    switch (m.type) {
      case 'query': {
        const target = m.tx === undefined ? db : open.get(m.tx)?.tx;
        if (!target) {
          reply({ type: 'result', id: m.id, error: { name: 'Error', message: 'Transaction is closed' } });
          return;
        }
        const options: QueryOptions = {
          ...(m.rowMode ? { rowMode: m.rowMode } : {}),
          ...(m.rawDates ? { parsers: RAW_DATES } : {}),
        };
        target.query(m.sql, m.params, options).then(
          (r) =>
            reply({
              type: 'result',
              id: m.id,
              result: {
                rows: r.rows as SerializedResults['rows'],
                fields: r.fields,
                affectedRows: r.affectedRows,
              },
            }),
          (err: unknown) => reply({ type: 'result', id: m.id, error: serialize(err) }),
        );
        return;
      }
      case 'exec': {
        const target = m.tx === undefined ? db : open.get(m.tx)?.tx;
        if (!target) {
          reply({ type: 'result', id: m.id, error: { name: 'Error', message: 'Transaction is closed' } });
          return;
        }
        target.exec(m.sql).then(
          (r) =>
            reply({
              type: 'result',
              id: m.id,
              results: r.map((x) => ({ rows: x.rows, fields: x.fields, affectedRows: x.affectedRows })),
            }),
          (err: unknown) => reply({ type: 'result', id: m.id, error: serialize(err) }),
        );
        return;
      }
      case 'begin': {
        // The transaction holds PGlite until the main thread ends it; other statements wait.
        db.transaction(async (tx) => {
          const commit = await new Promise<boolean>((end) => {
            open.set(m.id, { tx, end });
            reply({ type: 'result', id: m.id });
          });
          if (!commit && !tx.closed) await tx.rollback();
        })
          .catch((err: unknown) => {
            // Begin failed (no reply yet) or commit failed (the `end` request answers it).
            if (!open.has(m.id)) reply({ type: 'result', id: m.id, error: serialize(err) });
            else ending.get(m.id)?.(serialize(err));
          })
          .then(() => ending.get(m.id)?.(undefined))
          .finally(() => {
            open.delete(m.id);
            ending.delete(m.id);
          });
        return;
      }
      case 'end': {
        const t = open.get(m.tx);
        if (!t) {
          reply({ type: 'result', id: m.id, error: { name: 'Error', message: 'Transaction is closed' } });
          return;
        }
        let answered = false;
        ending.set(m.tx, (error) => {
          if (answered) return;
          answered = true;
          reply(error ? { type: 'result', id: m.id, error } : { type: 'result', id: m.id });
        });
        t.end(m.commit);
        return;
      }
      case 'close':
        db.close().then(
          () => reply({ type: 'result', id: m.id }),
          (err: unknown) => reply({ type: 'result', id: m.id, error: serialize(err) }),
        );
        return;
    }
  });
  reply({ type: 'ready' });
}

/** Answers the `end` request of a transaction once it has committed or rolled back. */
const ending = new Map<number, (error: SerializedDbError | undefined) => void>();

void main();
