import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
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
  | { type: 'begin'; id: number; tx: number }
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

/**
 * PGlite's `types.TIMESTAMPTZ`, written out so this thread never loads PGlite: drizzle's options
 * keep every date and time type as text or none, so this one tells which.
 */
const TIMESTAMPTZ = 1184;

/**
 * V8 recompiles a WebAssembly function with its optimising compiler once it has run about 1.8 MB of
 * code; PostgreSQL's start-up alone crosses that in hundreds of functions it never runs again, and
 * their recompiling took ≈ 0.6 s of CPU during a start, on the cores the server was loading its code
 * on. Ten times the budget: functions that stay hot (the queries' own) are still optimised, a little
 * later. Process-wide, and PGlite is the only WebAssembly the server runs. See
 * docs/ARCHITECTURE.md#build-and-run.
 */
const WASM_TIERING_BUDGET = 18_000_000;
let tieringSet = false;
function lateWasmTierUp(): void {
  if (tieringSet) return;
  tieringSet = true;
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}

/**
 * The thread's short-lived objects are each statement's rows on their way to the main thread: a
 * small young generation holds them, where V8's default grew to ≈ 13 MB resident that an idle
 * server kept (docs/ARCHITECTURE.md#build-and-run).
 */
const YOUNG_GENERATION_MB = 6;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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
    lateWasmTierUp();
    const worker = spawnTsWorker(
      new URL('./pglite-worker.ts', import.meta.url),
      { ...(dataDir ? { dataDir } : {}) } satisfies DbWorkerData,
      { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } },
    );
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

  /** Sends a request (numbered here) and answers its reply, or throws the error it carries. */
  private ask(request: DistributiveOmit<DbRequest, 'id'>): Promise<DbReply & { type: 'result' }> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (reply) => (reply.error ? reject(revive(reply.error)) : resolve(reply)),
        reject,
      });
      this.worker.postMessage({ ...request, id });
    });
  }

  private async run<T>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number) {
    const reply = await this.ask({
      type: 'query',
      ...(tx !== undefined ? { tx } : {}),
      sql,
      ...(params ? { params } : {}),
      ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
      ...(options?.parsers?.[TIMESTAMPTZ] ? { rawDates: true } : {}),
    });
    return reply.result as Results<T>;
  }

  private async runExec(sql: string, tx?: number): Promise<Results[]> {
    const reply = await this.ask({ type: 'exec', ...(tx !== undefined ? { tx } : {}), sql });
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
    await this.ask({ type: 'begin', tx: id });
    let closed = false;
    const end = async (commit: boolean) => {
      if (closed) return;
      closed = true;
      await this.ask({ type: 'end', tx: id, commit });
    };
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: PGliteTx = {
      query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
        open();
        return this.run<R>(sql, params, options, id);
      },
      exec: async (sql: string) => {
        open();
        return this.runExec(sql, id);
      },
      rollback: () => end(false),
      get closed() {
        return closed;
      },
    };
    let value: T;
    try {
      value = await fn(tx);
    } catch (err) {
      await end(false).catch(() => {});
      throw err;
    }
    await end(true);
    return value;
  }

  async close(): Promise<void> {
    if (!this.dead) await this.ask({ type: 'close' }).catch(() => {});
    await this.worker.terminate();
  }
}
