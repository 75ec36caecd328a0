import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteThread } from './pglite-thread.ts';

let db: PGliteThread;

beforeAll(async () => {
  db = await PGliteThread.open();
  await db.exec('create table t (id int primary key, v text not null)');
});
afterAll(async () => {
  await db.close();
});

const count = async () => (await db.query<{ n: number }>('select count(*)::int as n from t')).rows[0]?.n;

describe('PGlite on its own thread', () => {
  it('answers rows as objects or arrays, with parameters', async () => {
    await db.query('insert into t values ($1, $2), ($3, $4)', [1, 'a', 2, 'b']);
    expect((await db.query('select id, v from t order by id')).rows).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
    expect((await db.query('select id, v from t where id = $1', [2], { rowMode: 'array' })).rows).toEqual([
      [2, 'b'],
    ]);
    const [created] = (await db.query<{ at: unknown }>(`select '2026-01-02T03:04:05Z'::timestamptz as at`))
      .rows;
    expect(created?.at).toBeInstanceOf(Date);
  });

  it("keeps PostgreSQL's error code and constraint on errors", async () => {
    const err = await db.query('insert into t values (1, $1)', ['again']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey' });
  });

  it('commits a transaction that resolves and rolls back one that throws or asks to', async () => {
    const before = await count();
    await db.transaction(async (tx) => {
      await tx.query('insert into t values (10, $1)', ['kept']);
    });
    expect(await count()).toBe((before ?? 0) + 1);

    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t values (11, $1)', ['gone']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.transaction(async (tx) => {
      await tx.query('insert into t values (12, $1)', ['gone too']);
      await tx.rollback();
      await expect(tx.query('select 1')).rejects.toThrow('Transaction is closed');
    });
    expect(await count()).toBe((before ?? 0) + 1);
  });

  it('holds other statements until a transaction ends, which then see what it committed', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tx = db.transaction(async (t) => {
      await t.query('insert into t values (20, $1)', ['inside']);
      await gate;
    });
    // Let the transaction open before the outside read is sent.
    await new Promise((r) => setTimeout(r, 50));
    let seen: unknown;
    const outside = db.query('select v from t where id = 20').then((r) => {
      seen = r.rows;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toBeUndefined();
    release();
    await tx;
    await outside;
    expect(seen).toEqual([{ v: 'inside' }]);
  });

  it('leaves the event loop free while a statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await db.query('select pg_sleep(0.3)');
    clearInterval(timer);
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it('refuses statements once closed', async () => {
    const other = await PGliteThread.open();
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/embedded database stopped/);
  });

  it("keeps its memory settings on disk without rewriting the data dir's postgresql.conf", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'assistente-pglite-'));
    try {
      const first = await PGliteThread.open(dir);
      await first.close();
      const conf = readFileSync(path.join(dir, 'postgresql.conf'), 'utf8');
      const again = await PGliteThread.open(dir);
      try {
        expect((await again.query<{ shared_buffers: string }>('show shared_buffers')).rows[0]).toEqual({
          shared_buffers: '16MB',
        });
        expect((await again.query<{ max_connections: string }>('show max_connections')).rows[0]).toEqual({
          max_connections: '8',
        });
      } finally {
        await again.close();
      }
      expect(readFileSync(path.join(dir, 'postgresql.conf'), 'utf8')).toBe(conf);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
