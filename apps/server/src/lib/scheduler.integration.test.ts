import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { jobRuns } from '../db/schema/index.ts';
import { testDb } from '../test/db.ts';
import { createLocalBus } from './bus.ts';
import { createMetrics } from './metrics.ts';
import { createScheduler, type Scheduler } from './scheduler.ts';

let database: Database;
const log = Fastify({ logger: { level: 'silent' } }).log;
const open: Scheduler[] = [];

const metrics = createMetrics();

/** One bus between the replicas of these tests, as Redis is between processes. */
const bus = createLocalBus();

/** A replica's scheduler on the shared database. */
function replica(): Scheduler {
  const s = createScheduler({ db: database.db, log, metrics, bus });
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

/** A job whose run waits for `release()`; `started` resolves when a run begins. */
function heldJob(name: string, counts: Record<string, number> = {}) {
  let runs = 0;
  let release: () => void = () => {};
  let started: () => void = () => {};
  const begun = new Promise<void>((resolve) => {
    started = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    job: {
      name,
      everyMs: 24 * 60 * 60_000,
      run: async () => {
        runs++;
        started();
        await gate;
        return counts;
      },
    },
    begun,
    release: () => release(),
    runs: () => runs,
  };
}

describe('runs recorded, and run by hand', () => {
  it('records each run with what it did, its trigger and who asked; lists the job with its next run', async () => {
    const s = replica();
    let fail = false;
    s.add({
      name: 'counted',
      everyMs: 60_000,
      run: async () => {
        if (fail) throw new Error('store away');
        return { chats: 3, files: 1.4, bad: Number.NaN };
      },
    });
    // Never run: the timer's first try, within a period of being added.
    const fresh = (await s.list()).find((j) => j.name === 'counted');
    expect(fresh).toMatchObject({ name: 'counted', everyMs: 60_000, lastRun: null });
    const first = Date.parse(fresh?.nextRunAt ?? '') - Date.now();
    expect(first).toBeGreaterThan(50_000);
    expect(first).toBeLessThanOrEqual(60_000);
    expect(await s.runNow('counted')).toBe(true);
    const [job] = (await s.list()).filter((j) => j.name === 'counted');
    expect(job?.lastRun).toMatchObject({
      job: 'counted',
      trigger: 'schedule',
      by: null,
      status: 'ok',
      counts: { chats: 3, files: 1 },
      error: null,
    });
    expect(job?.lastRun?.finishedAt).not.toBeNull();
    // The first try once the lease (a minute from the run) has ended: within two periods.
    const next = Date.parse(job?.nextRunAt ?? '');
    expect(next - Date.now()).toBeGreaterThan(50_000);
    expect(next - Date.now()).toBeLessThanOrEqual(120_000);

    fail = true;
    expect(await s.runNow('counted')).toBe(true);
    const failed = (await s.list()).find((j) => j.name === 'counted')?.lastRun;
    expect(failed).toMatchObject({ status: 'failed', error: 'store away', counts: {} });
  });

  it('keeps the newest 50 runs of a job', async () => {
    const s = replica();
    s.add({ name: 'often', everyMs: 60_000, run: async () => ({ n: 1 }) });
    for (let i = 0; i < 53; i++) expect(await s.runNow('often')).toBe(true);
    const rows = await database.db.select().from(jobRuns).where(eq(jobRuns.job, 'often'));
    expect(rows).toHaveLength(50);
  });

  it('a run by hand runs although the lease is not due, never beside a run in progress, and 404s an unknown job', async () => {
    const s = replica();
    const held = heldJob('by-hand', { chats: 2 });
    s.add(held.job);
    // The schedule runs it: its lease is then held for a day.
    const scheduled = s.runNow('by-hand');
    await held.begun;
    // A run in progress: a run by hand is refused, on this replica and on any other.
    expect(await s.request('by-hand', 'root@example.com')).toEqual({ refused: 'busy' });
    const other = replica();
    other.know({ name: 'by-hand', everyMs: held.job.everyMs });
    expect(await other.request('by-hand', 'root@example.com')).toEqual({ refused: 'busy' });
    held.release();
    expect(await scheduled).toBe(true);
    expect(held.runs()).toBe(1);

    // The lease is not due for a day, yet the run by hand goes, asked from a process that does not run it.
    const asked = await other.request('by-hand', 'root@example.com');
    if (!('run' in asked)) throw new Error('refused');
    expect(asked.run).toMatchObject({
      job: 'by-hand',
      trigger: 'manual',
      by: 'root@example.com',
      status: 'running',
    });
    await eventually(async () => held.runs() === 2, 5_000);
    await eventually(
      async () => (await other.list()).find((j) => j.name === 'by-hand')?.lastRun?.status === 'ok',
      5_000,
    );
    const last = (await other.list()).find((j) => j.name === 'by-hand')?.lastRun;
    expect(last).toMatchObject({ id: asked.run.id, trigger: 'manual', counts: { chats: 2 } });
    expect(await other.request('nope', 'root@example.com')).toEqual({ refused: 'unknown' });
  });

  it('two processes that run a job: one of them takes a run asked by hand, once', async () => {
    const a = replica();
    const b = replica();
    const onA = heldJob('twice');
    const onB = heldJob('twice');
    a.add(onA.job);
    b.add(onB.job);
    onA.release();
    onB.release();
    const asked = await a.request('twice', 'root@example.com');
    expect('run' in asked).toBe(true);
    await eventually(async () => onA.runs() + onB.runs() === 1, 5_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(onA.runs() + onB.runs()).toBe(1);
  });
});

describe('a run whose process died', () => {
  it('is marked failed by the next run once its lock has expired', async () => {
    const s = replica();
    s.add({ name: 'orphaned', everyMs: 60_000, run: async () => ({ n: 1 }) });
    // A run left `running` by a process that died: its lock has expired.
    await database.db
      .insert(jobRuns)
      .values({ id: 'dead-run', job: 'orphaned', trigger: 'schedule', status: 'running' });
    expect(await s.runNow('orphaned')).toBe(true);
    const [dead] = await database.db.select().from(jobRuns).where(eq(jobRuns.id, 'dead-run'));
    expect(dead).toMatchObject({ status: 'failed', error: 'its process stopped before the run ended' });
    expect(dead?.finishedAt).toBeInstanceOf(Date);
  });
});
