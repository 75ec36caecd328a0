import type { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, types } from '@electric-sql/pglite';
import { spawnTsWorker } from '../lib/ts-worker.ts';

export interface DbWorkerData {
  dataDir?: string;
}

export interface SerializedDbError {
  name: string;
  message: string;
  code?: string;
  detail?: string;
  hint?: string;
  constraint?: string;
  table?: string;
  column?: string;
  schema?: string;
  severity?: string;
}

export type SerializedResults = Pick<Results, 'rows' | 'fields' | 'affectedRows'>;

export type DbRequest =
  | {
      type: 'query';
      id: number;
      tx?: number;
      sql: string;
      params?: unknown[];
      rowMode?: 'array' | 'object';
      rawDates?: boolean;
    }
  | { type: 'exec'; id: number; tx?: number; sql: string }
  | { type: 'begin'; id: number }
  | { type: 'end'; id: number; tx: number; commit: boolean }
  | { type: 'close'; id: number };

export type DbReply =
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedDbError }
  | {
      type: 'result';
      id: number;
      result?: SerializedResults;
      results?: SerializedResults[];
      error?: SerializedDbError;
    };

/** An error as the database raised it: message, and PostgreSQL's `code` and details as own fields. */
function revive(e: SerializedDbError): Error {
  const err = new Error(e.message);
  err.name = e.name;
  Object.assign(err, e);
  return err;
}

/** The statement methods drizzle uses, on the database or inside one transaction. */
export interface PGliteLike {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Array<Results>>;
}
export interface PGliteTx extends PGliteLike {
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** Whether drizzle's options keep date and time values as text (it always asks for all or none). */
const TIMESTAMPTZ: number = 1184 satisfies (typeof types)['TIMESTAMPTZ'];

/**
 * PGlite on a thread of its own (see pglite-worker.ts), with the methods drizzle's PGlite driver
 * calls: the event loop stays free while a statement runs. Statements keep PGlite's order and
 * its one-at-a-time rule (a transaction holds it until it ends).
 */
export class PGliteThread implements PGliteLike {
  private readonly pending = new Map<
    number,
    { resolve: (r: DbReply & { type: 'result' }) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private dead: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: DbReply) => {
      if (m.type !== 'result') return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      p.resolve(m);
    });
    const lost = (reason: Error) => {
      this.dead ??= reason;
      for (const p of this.pending.values()) p.reject(reason);
      this.pending.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The embedded database stopped (exit ${code})`)));
  }

  /** Starts the thread and opens the database in `dataDir` (in memory without one). */
  static async open(dataDir?: string): Promise<PGliteThread> {
    const worker = spawnTsWorker(new URL('./pglite-worker.ts', import.meta.url), {
      ...(dataDir ? { dataDir } : {}),
    } satisfies DbWorkerData);
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: DbReply) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'failed') reject(revive(m.error));
        else return;
        worker.off('message', onMessage);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`The embedded database did not start (exit ${code})`)));
    });
    worker.removeAllListeners('error');
    worker.removeAllListeners('exit');
    return new PGliteThread(worker);
  }

  private call(request: DbRequest): Promise<DbReply & { type: 'result' }> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  private async run<T>(
    sql: string,
    params: unknown[] | undefined,
    options: QueryOptions | undefined,
    tx?: number,
  ) {
    const reply = await this.call({
      type: 'query',
      id: this.nextId++,
      ...(tx !== undefined ? { tx } : {}),
      sql,
      ...(params ? { params } : {}),
      ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
      ...(options?.parsers?.[TIMESTAMPTZ] ? { rawDates: true } : {}),
    });
    if (reply.error) throw revive(reply.error);
    return reply.result as Results<T>;
  }

  private async runExec(sql: string, tx?: number): Promise<Results[]> {
    const reply = await this.call({
      type: 'exec',
      id: this.nextId++,
      ...(tx !== undefined ? { tx } : {}),
      sql,
    });
    if (reply.error) throw revive(reply.error);
    return (reply.results ?? []) as Results[];
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.run<T>(sql, params, options);
  }

  exec(sql: string): Promise<Results[]> {
    return this.runExec(sql);
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws (or calls rollback). */
  async transaction<T>(fn: (tx: PGliteTx) => Promise<T>): Promise<T> {
    const id = this.nextId++;
    const begun = await this.call({ type: 'begin', id });
    if (begun.error) throw revive(begun.error);
    let closed = false;
    const tx: PGliteTx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
        if (closed) return Promise.reject(new Error('Transaction is closed'));
        return this.run<R>(sql, params, options, id);
      },
      exec: (sql: string) => {
        if (closed) return Promise.reject(new Error('Transaction is closed'));
        return this.runExec(sql, id);
      },
      rollback: async () => {
        if (closed) return;
        closed = true;
        const ended = await this.call({ type: 'end', id: this.nextId++, tx: id, commit: false });
        if (ended.error) throw revive(ended.error);
      },
      get closed() {
        return closed;
      },
    };
    let value: T;
    try {
      value = await fn(tx);
    } catch (err) {
      if (!closed) {
        closed = true;
        await this.call({ type: 'end', id: this.nextId++, tx: id, commit: false }).catch(() => {});
      }
      throw err;
    }
    if (!closed) {
      closed = true;
      const ended = await this.call({ type: 'end', id: this.nextId++, tx: id, commit: true });
      if (ended.error) throw revive(ended.error);
    }
    return value;
  }

  async close(): Promise<void> {
    if (!this.dead) {
      await this.call({ type: 'close', id: this.nextId++ }).catch(() => {});
    }
    await this.worker.terminate();
  }
}
