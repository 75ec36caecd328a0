import { randomUUID } from 'node:crypto';
import type { JobRun, Job as JobView } from '@assistente/contracts';
import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { jobLeases, jobRuns } from '../db/schema/index.ts';
import { type Bus, createLocalBus } from './bus.ts';
import type { Metrics } from './metrics.ts';

/** What a run did (`chats`, `files`, …), kept with the run and shown to a SuperAdmin. */
export type JobCounts = Record<string, number>;
/** What a job's run answers: its counts, or nothing (`async () => {}`). */
// biome-ignore lint/suspicious/noConfusingVoidType: a run that answers nothing is typed `Promise<void>`.
export type JobOutcome = JobCounts | undefined | void;

export interface Job {
  /** Unique across the cluster: replicas agree on who runs a job by its name. */
  name: string;
  everyMs: number;
  /** Also try at once when added, not only after the first period (start-up recovery work). */
  runAtStart?: boolean;
  run(): Promise<JobOutcome>;
}

/** What asking for a run now answers: the run started, or why none was. */
export type RunRequest = { run: JobRun } | { refused: 'unknown' | 'busy' };

export interface Scheduler {
  /**
   * Runs `job` every `everyMs` on whichever replica takes its lease first (and at once with `runAtStart`).
   * Answers a function that removes the job (for a module closing before the app).
   */
  add(job: Job): () => void;
  /** A job of the cluster that processes of another role run: listed, and run by hand, from here too. */
  know(job: Pick<Job, 'name' | 'everyMs'>): void;
  /** Tries `name` now, under its lease: true when this replica ran it. For tests and start-up work. */
  runNow(name: string): Promise<boolean>;
  /**
   * Runs `name` now for `by`, whatever its lease, on a process that runs it (over the bus): answers
   * the run as it starts, or `busy` while a run of it is in progress anywhere in the cluster.
   */
  request(name: string, by: string): Promise<RunRequest>;
  /** Every job this process knows of, with its last run and when its schedule next runs it. */
  list(): Promise<JobView[]>;
  /** The names of the jobs added, in the order they were. */
  jobs(): string[];
  /** Stops the timers and waits for the runs in progress. */
  close(): Promise<void>;
}

/** Bus channel: a run asked for by hand (`{ name, runId }`), for a process that runs the job to claim. */
const RUN_REQUESTED = 'scheduler.run';
/** Runs kept per job. */
const RUNS_KEPT = 50;
/**
 * A run holds its job's run lock (`<name>#run` in `job_leases`) this long, renewed while it runs,
 * so no two runs of a job overlap; a run whose process died frees it within this time. Also how
 * long a run asked for by hand waits for a process to claim it.
 */
const RUN_LOCK_MS = 60_000;
const RUN_LOCK_RENEW_MS = 20_000;
const runLock = (name: string) => `${name}#run`;
/** The longest a timer waits between two tries of a job; longer periods are left to the lease. */
const MAX_TICK_MS = 60 * 60_000;
/** Who holds a run lock asked for by hand until a process running the job claims it. */
const requested = (runId: string) => `request:${runId}`;

type RunRow = typeof jobRuns.$inferSelect;

export function toJobRun(row: RunRow): JobRun {
  return {
    id: row.id,
    job: row.job,
    trigger: row.trigger,
    by: row.by,
    status: row.status,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    counts: { ...row.counts },
    error: row.error,
  };
}

/** Whole counts at least 0: a job's mistake does not make its run unreadable. */
function cleanCounts(counts: JobOutcome): JobCounts {
  const out: JobCounts = {};
  for (const [k, v] of Object.entries(counts ?? {})) {
    if (Number.isFinite(v)) out[k] = Math.max(0, Math.round(v));
  }
  return out;
}

/**
 * One scheduler per process for every background job (docs/ARCHITECTURE.md#background-jobs). Each run takes the job's lease
 * row for one period, so however many replicas tick, each job runs once a period in the cluster; a
 * replica killed mid-run loses the lease when the period ends and another takes over. Every run,
 * scheduled or asked for by hand, also holds the job's run lock while it runs, and is recorded in
 * `job_runs`.
 */
export function createScheduler(deps: {
  db: Db;
  log: FastifyBaseLogger;
  /** Where runs asked for by hand reach the processes that run the job (default: this process alone). */
  bus?: Bus;
  /**
   * This process alone writes the database: whoever holds a lease is a predecessor that died
   * (`kill -9`) without ending it, and start-up recovery must not wait out its period.
   */
  soleWriter?: boolean;
  /** Counts each run this replica makes, by outcome. */
  metrics?: Pick<Metrics, 'jobRun'>;
}): Scheduler {
  const { db, log } = deps;
  const bus = deps.bus ?? createLocalBus();
  const holder = randomUUID();
  const predecessorsGone = deps.soleWriter
    ? db
        .update(jobLeases)
        .set({ until: sql`now()` })
        .then(
          () => undefined,
          (err: unknown) => log.warn({ err }, 'scheduler: could not end a predecessor’s leases'),
        )
    : Promise.resolve();
  const jobs = new Map<string, Job>();
  /** Every job of the cluster this process knows of (its own and those of other roles), by name. */
  const known = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<unknown>>();
  /** The timer's try of each job, while it runs. */
  const inFlight = new Map<string, Promise<boolean>>();
  /** When each job's timer here started, and its interval: when it next tries. */
  const ticking = new Map<string, { since: number; everyMs: number }>();
  /** The first try of `name` by this process's timer at or after `after`; undefined if not ticking here. */
  const nextTick = (name: string, after: number): Date | undefined => {
    const t = ticking.get(name);
    if (!t) return undefined;
    return new Date(t.since + Math.max(1, Math.ceil((after - t.since) / t.everyMs)) * t.everyMs);
  };
  let closed = false;

  const until = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

  /** Takes `name`'s lease row for `ms` when it has expired (or, `reenter`, is already `who`'s). */
  async function lease(name: string, who: string, ms: number, reenter: boolean): Promise<boolean> {
    await predecessorsGone;
    // The database's clock decides, so replicas whose clocks differ still agree.
    const rows = await db
      .insert(jobLeases)
      .values({ name, holder: who, until: until(ms) })
      .onConflictDoUpdate({
        target: jobLeases.name,
        set: { holder: who, until: until(ms) },
        setWhere: reenter
          ? sql`${jobLeases.until} <= now() or ${jobLeases.holder} = ${who}`
          : sql`${jobLeases.until} <= now()`,
      })
      .returning({ holder: jobLeases.holder });
    return rows.length > 0;
  }

  /**
   * Just after taking a job's run lock: runs of it still marked running belong to a process that
   * died (or to a request no process claimed), since their lock had expired.
   */
  async function endAbandoned(name: string, except: string): Promise<void> {
    await db
      .update(jobRuns)
      .set({ status: 'failed', finishedAt: sql`now()`, error: 'its process stopped before the run ended' })
      .where(and(eq(jobRuns.job, name), eq(jobRuns.status, 'running'), ne(jobRuns.id, except)));
  }

  /** Runs `job` as the run `runId` (recorded, its run lock held by this process), and records how it ended. */
  async function execute(job: Job, runId: string): Promise<void> {
    const lockName = runLock(job.name);
    const renew = setInterval(() => {
      db.update(jobLeases)
        .set({ until: until(RUN_LOCK_MS) })
        .where(and(eq(jobLeases.name, lockName), eq(jobLeases.holder, holder)))
        .catch((err: unknown) => log.warn({ err, job: job.name }, 'scheduler: could not renew a run lock'));
    }, RUN_LOCK_RENEW_MS);
    renew.unref();
    let outcome: { status: 'ok' | 'failed'; counts: JobCounts; error: string | null };
    try {
      outcome = { status: 'ok', counts: cleanCounts(await job.run()), error: null };
    } catch (err) {
      log.error({ err, job: job.name }, 'scheduler: a background job failed');
      outcome = {
        status: 'failed',
        counts: {},
        error: String((err as Error)?.message ?? err).slice(0, 2_000),
      };
    } finally {
      clearInterval(renew);
    }
    deps.metrics?.jobRun(job.name, outcome.status);
    try {
      await db
        .update(jobRuns)
        .set({ ...outcome, finishedAt: sql`now()` })
        .where(eq(jobRuns.id, runId));
      await db.update(jobLeases).set({ lastRunAt: sql`now()` }).where(eq(jobLeases.name, job.name));
      await db
        .update(jobLeases)
        .set({ until: sql`now()` })
        .where(and(eq(jobLeases.name, lockName), eq(jobLeases.holder, holder)));
      // The newest RUNS_KEPT stay.
      await db.execute(
        sql`delete from ${jobRuns} where ${jobRuns.job} = ${job.name} and ${jobRuns.id} in (select id from ${jobRuns} where ${jobRuns.job} = ${job.name} order by ${jobRuns.startedAt} desc offset ${RUNS_KEPT})`,
      );
    } catch (err) {
      log.warn({ err, job: job.name }, 'scheduler: could not record the end of a run');
    }
  }

  /**
   * The schedule's try: the period's lease, then the run lock (a run by hand may hold it).
   * `reenter`: the lease's holder may run again before the period ends (a timer ticking once a
   * period, a test's runNow).
   */
  async function attempt(job: Job, reenter: boolean): Promise<boolean> {
    if (closed) return false;
    const runId = randomUUID();
    try {
      if (!(await lease(job.name, holder, job.everyMs, reenter))) return false;
      if (!(await lease(runLock(job.name), holder, RUN_LOCK_MS, false))) return false;
      await endAbandoned(job.name, runId);
      await db.insert(jobRuns).values({ id: runId, job: job.name, trigger: 'schedule', status: 'running' });
    } catch (err) {
      log.warn({ err, job: job.name }, 'scheduler: could not take a job lease');
      return false;
    }
    await execute(job, runId);
    return true;
  }

  function track<T>(p: Promise<T>): Promise<T> {
    running.add(p);
    void p.finally(() => running.delete(p));
    return p;
  }

  // A run asked for by hand: the first process running the job to claim its run lock runs it.
  const unsubscribe = bus.subscribe(RUN_REQUESTED, (message) => {
    const { name, runId } = (message ?? {}) as { name?: unknown; runId?: unknown };
    if (typeof name !== 'string' || typeof runId !== 'string') return;
    const job = jobs.get(name);
    if (!job || closed) return;
    void track(
      (async () => {
        const claimed = await db
          .update(jobLeases)
          .set({ holder, until: until(RUN_LOCK_MS) })
          .where(and(eq(jobLeases.name, runLock(name)), eq(jobLeases.holder, requested(runId))))
          .returning({ name: jobLeases.name });
        if (claimed.length > 0) await execute(job, runId);
      })().catch((err: unknown) => log.warn({ err, job: name }, 'scheduler: could not claim a run')),
    );
  });

  return {
    add(job) {
      if (jobs.has(job.name)) throw new Error(`scheduler: job ${job.name} is already added`);
      jobs.set(job.name, job);
      known.set(job.name, job.everyMs);
      const tick = () => {
        // A run longer than its period is not started twice on one replica.
        if (inFlight.has(job.name) || closed || jobs.get(job.name) !== job) return;
        const run = track(attempt(job, tickMs === job.everyMs));
        inFlight.set(job.name, run);
        void run.finally(() => inFlight.delete(job.name));
      };
      // A long period is checked more often: a process restarted within it still runs the job
      // once the lease says it is due, not a whole period after its start.
      const tickMs = Math.min(job.everyMs, MAX_TICK_MS);
      const timer = setInterval(tick, tickMs);
      timer.unref();
      timers.add(timer);
      ticking.set(job.name, { since: Date.now(), everyMs: tickMs });
      // Housekeeping waits its period: every start (and every test app) need not purge at once.
      // A start-up try begins now, not on a later turn: a runNow right after `add` then waits for
      // it instead of racing it for the lease (the job itself runs only once the lease is taken).
      if (job.runAtStart) tick();
      return () => {
        clearInterval(timer);
        timers.delete(timer);
        jobs.delete(job.name);
        ticking.delete(job.name);
      };
    },

    know(job) {
      if (!known.has(job.name)) known.set(job.name, job.everyMs);
    },

    async runNow(name) {
      const job = jobs.get(name);
      if (!job) throw new Error(`scheduler: no job ${name}`);
      // After a timer's try already under way, so the two never race for the lease.
      await inFlight.get(name);
      return track(attempt(job, true));
    },

    async request(name, by) {
      if (!known.has(name)) return { refused: 'unknown' };
      const runId = randomUUID();
      // Held for the run until a process running the job claims it: a second request, or the
      // schedule, finds it taken meanwhile.
      if (!(await lease(runLock(name), requested(runId), RUN_LOCK_MS, false))) return { refused: 'busy' };
      await endAbandoned(name, runId);
      const [row] = await db
        .insert(jobRuns)
        .values({ id: runId, job: name, trigger: 'manual', by, status: 'running' })
        .returning();
      await bus.publish(RUN_REQUESTED, { name, runId });
      return { run: toJobRun(row as RunRow) };
    },

    async list() {
      const names = [...known.keys()];
      if (names.length === 0) return [];
      const [runs, leases] = await Promise.all([
        db
          .selectDistinctOn([jobRuns.job])
          .from(jobRuns)
          .where(inArray(jobRuns.job, names))
          .orderBy(jobRuns.job, desc(jobRuns.startedAt)),
        db
          .select({ name: jobLeases.name, until: jobLeases.until })
          .from(jobLeases)
          .where(inArray(jobLeases.name, names)),
      ]);
      const lastRuns = new Map(runs.map((r) => [r.job, r]));
      const leased = new Map(leases.map((l) => [l.name, l.until]));
      const now = Date.now();
      return names.map((name) => {
        const last = lastRuns.get(name);
        // The schedule runs it at the first try once its lease has ended (never run: the first
        // try). A job of another role's processes: the lease's end, when there is one.
        const until = leased.get(name);
        const next = nextTick(name, Math.max(now, until?.getTime() ?? now)) ?? until;
        return {
          name,
          everyMs: known.get(name) ?? 0,
          lastRun: last ? toJobRun(last) : null,
          nextRunAt: next?.toISOString() ?? null,
        };
      });
    },

    jobs: () => [...jobs.keys()],

    async close() {
      closed = true;
      unsubscribe();
      for (const t of timers) clearInterval(t);
      timers.clear();
      await Promise.allSettled([...running]);
      // Leases this replica holds end now: another replica need not wait out the period.
      await db
        .update(jobLeases)
        .set({ until: sql`now()` })
        .where(sql`${jobLeases.holder} = ${holder}`)
        .catch(() => undefined);
    },
  };
}
