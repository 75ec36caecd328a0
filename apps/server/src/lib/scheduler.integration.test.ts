import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { testDb } from '../test/db.ts';
import { createMetrics } from './metrics.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';

let database: Database;
const log = Fastify({ logger: { level: 'silent' } }).log;
const open: Scheduler[] = [];

const metrics = createMetrics();

/** A replica's scheduler on the shared database. */
function replica(): Scheduler {
  const s = createScheduler({ db: database.db, log, metrics });
  open.push(s);
  return s;
}

/** A job whose runs are counted; `ran` resolves at its first run. */
function countingJob(name: string, everyMs: number) {
  let runs = 0;
  let first: () => void = () => {};
  const ran = new Promise<void>((resolve) => {
    first = resolve;
  });
  return {
    job: {
      name,
      everyMs,
      runAtStart: true,
      run: async () => {
        runs++;
        first();
      },
    },
    ran,
    runs: () => runs,
  };
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  database = await testDb();
});

afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await database.close();
});

describe('one scheduler for background jobs, one replica a run', () => {
  it('runs a job at once on the replica that takes its lease; another replica skips it until it is let go', async () => {
    const a = replica();
    const b = replica();
    const onA = countingJob('sweep', 60_000);
    const onB = countingJob('sweep', 60_000);
    a.add(onA.job);
    await onA.ran;
    b.add(onB.job);
    // B's own first try has happened once its runNow is answered: both go through the same lease.
    expect(await b.runNow('sweep')).toBe(false);
    expect(onB.runs()).toBe(0);
    // The holder may run it again within its period (a start-up pass, a test).
    expect(await a.runNow('sweep')).toBe(true);
    expect(onA.runs()).toBe(2);

    await a.close();
    expect(await b.runNow('sweep')).toBe(true);
    expect(onB.runs()).toBe(1);
    expect(await a.runNow('sweep')).toBe(false);
  });

  it('a replica that died holding a lease loses it when its period ends', async () => {
    const dead = replica();
    const survivor = replica();
    const onDead = countingJob('short', 5_000);
    const stop = dead.add(onDead.job);
    await onDead.ran;
    // Killed: its timers are gone, its lease is not let go.
    stop();
    survivor.add(countingJob('short', 5_000).job);
    expect(await survivor.runNow('short')).toBe(false);
    await eventually(() => survivor.runNow('short'), 15_000);
  });

  it('a failing job is logged and runs again next time; jobs do not share leases', async () => {
    const s = replica();
    let calls = 0;
    s.add({
      name: 'flaky',
      everyMs: 60_000,
      runAtStart: true,
      run: async () => {
        calls++;
        if (calls === 1) throw new Error('boom');
      },
    });
    await eventually(async () => calls >= 1, 5_000);
    expect(await s.runNow('flaky')).toBe(true);
    expect(calls).toBe(2);
    // Each run this replica made is counted by its outcome (docs/ARCHITECTURE.md#metrics).
    const text = await metrics.scrape();
    expect(text).toContain('assistente_job_runs_total{job="flaky",outcome="failed"} 1\n');
    expect(text).toContain('assistente_job_runs_total{job="flaky",outcome="ok"} 1\n');
    const other = countingJob('other', 60_000);
    s.add(other.job);
    await other.ran;
    expect(() => s.add(countingJob('other', 1_000).job)).toThrow(/already added/);
    // Housekeeping waits its first period: a start does not purge at once.
    const later = countingJob('later', 60_000);
    s.add({ ...later.job, runAtStart: false });
    await new Promise((r) => setImmediate(r));
    expect(later.runs()).toBe(0);
  });
});
