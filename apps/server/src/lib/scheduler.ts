import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { jobLeases } from '../db/schema/index.ts';
import type { Metrics } from './metrics.ts';

export interface Job {
  /** Unique across the cluster: replicas agree on who runs a job by its name. */
  name: string;
  everyMs: number;
  /** Also try at once when added, not only after the first period (start-up recovery work). */
  runAtStart?: boolean;
  run(): Promise<void>;
}

export interface Scheduler {
  /**
   * Runs `job` every `everyMs` on whichever replica takes its lease first (and at once with `runAtStart`).
   * Answers a function that removes the job (for a module closing before the app).
   */
  add(job: Job): () => void;
  /** Tries `name` now, under its lease: true when this replica ran it. For tests and start-up work. */
  runNow(name: string): Promise<boolean>;
  /** The names of the jobs added, in the order they were. */
  jobs(): string[];
  /** Stops the timers and waits for the runs in progress. */
  close(): Promise<void>;
}

/**
 * One scheduler per process for every background job (docs/ARCHITECTURE.md#background-jobs). Each run takes the job's lease
 * row for one period, so however many replicas tick, each job runs once a period in the cluster; a
 * replica killed mid-run loses the lease when the period ends and another takes over.
 */
export function createScheduler(deps: {
  db: Db;
  log: FastifyBaseLogger;
  /**
   * This process alone writes the database: whoever holds a lease is a predecessor that died
   * (`kill -9`) without ending it, and start-up recovery must not wait out its period.
   */
  soleWriter?: boolean;
  /** Counts each run this replica makes, by outcome. */
  metrics?: Pick<Metrics, 'jobRun'>;
}): Scheduler {
  const holder = randomUUID();
  const predecessorsGone = deps.soleWriter
    ? deps.db
        .update(jobLeases)
        .set({ until: sql`now()` })
        .then(
          () => undefined,
          (err: unknown) => deps.log.warn({ err }, 'scheduler: could not end a predecessor’s leases'),
        )
    : Promise.resolve();
  const jobs = new Map<string, Job>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  /** The timer's try of each job, while it runs. */
  const inFlight = new Map<string, Promise<boolean>>();
  let closed = false;

  async function takeLease(job: Job): Promise<boolean> {
    await predecessorsGone;
    // The database's clock decides, so replicas whose clocks differ still agree.
    const rows = await deps.db
      .insert(jobLeases)
      .values({ name: job.name, holder, until: sql`now() + ${job.everyMs} * interval '1 millisecond'` })
      .onConflictDoUpdate({
        target: jobLeases.name,
        set: { holder, until: sql`now() + ${job.everyMs} * interval '1 millisecond'` },
        setWhere: sql`${jobLeases.until} <= now() or ${jobLeases.holder} = ${holder}`,
      })
      .returning({ holder: jobLeases.holder });
    return rows.length > 0;
  }

  async function attempt(job: Job): Promise<boolean> {
    if (closed) return false;
    let mine: boolean;
    try {
      mine = await takeLease(job);
    } catch (err) {
      deps.log.warn({ err, job: job.name }, 'scheduler: could not take a job lease');
      return false;
    }
    if (!mine) return false;
    try {
      await job.run();
      await deps.db
        .update(jobLeases)
        .set({ lastRunAt: sql`now()` })
        .where(sql`${jobLeases.name} = ${job.name} and ${jobLeases.holder} = ${holder}`);
      deps.metrics?.jobRun(job.name, 'ok');
    } catch (err) {
      deps.metrics?.jobRun(job.name, 'failed');
      deps.log.error({ err, job: job.name }, 'scheduler: a background job failed');
    }
    return true;
  }

  function track<T>(p: Promise<T>): Promise<T> {
    running.add(p);
    void p.finally(() => running.delete(p));
    return p;
  }

  return {
    add(job) {
      if (jobs.has(job.name)) throw new Error(`scheduler: job ${job.name} is already added`);
      jobs.set(job.name, job);
      const tick = () => {
        // A run longer than its period is not started twice on one replica.
        if (inFlight.has(job.name) || closed || jobs.get(job.name) !== job) return;
        const run = track(attempt(job));
        inFlight.set(job.name, run);
        void run.finally(() => inFlight.delete(job.name));
      };
      const timer = setInterval(tick, job.everyMs);
      timer.unref();
      timers.add(timer);
      // Housekeeping waits its period: every start (and every test app) need not purge at once.
      // A start-up try begins now, not on a later turn: a runNow right after `add` then waits for
      // it instead of racing it for the lease (the job itself runs only once the lease is taken).
      if (job.runAtStart) tick();
      return () => {
        clearInterval(timer);
        timers.delete(timer);
        jobs.delete(job.name);
      };
    },

    async runNow(name) {
      const job = jobs.get(name);
      if (!job) throw new Error(`scheduler: no job ${name}`);
      // After a timer's try already under way, so the two never race for the lease.
      await inFlight.get(name);
      return track(attempt(job));
    },

    jobs: () => [...jobs.keys()],

    async close() {
      closed = true;
      for (const t of timers) clearInterval(t);
      timers.clear();
      await Promise.allSettled([...running]);
      // Leases this replica holds end now: another replica need not wait out the period.
      await deps.db
        .update(jobLeases)
        .set({ until: sql`now()` })
        .where(sql`${jobLeases.holder} = ${holder}`)
        .catch(() => undefined);
    },
  };
}
