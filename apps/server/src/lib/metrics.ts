import { readdir } from 'node:fs/promises';
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { MessageUsage } from '@assistente/contracts';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { liveWorkers } from './ts-worker.ts';

/**
 * The figures `GET /metrics` shows (docs/ARCHITECTURE.md#metrics). One `Metrics` per app context:
 * tests build several apps in one process, and a metric registered twice in one registry throws.
 * What belongs to the process (its CPU, memory, event loop, worker threads) is in one registry
 * built once per process and shown by every app's scrape. No label ever names a person: routes are
 * patterns, models are `provider:model`, jobs and pools are names from the code.
 */
export interface Metrics {
  /** The text of a scrape (Prometheus text format) and its content type. */
  scrape(): Promise<string>;
  readonly contentType: string;
  /** One HTTP answer: `route` is the route's pattern, or undefined when no route matched. */
  httpRequest(method: string, route: string | undefined, status: number, seconds: number): void;
  /** Adds a source of a "now" figure; answers a function that removes it. */
  measure(what: NowFigure, read: () => number): () => void;
  /** One model call ended (chat answer or `/v1`): its time to first token and its tokens. */
  modelCall(model: string, firstTokenSeconds: number | undefined, usage: MessageUsage | undefined): void;
  /** A call refused by a budget (docs/ARCHITECTURE.md#metrics): counted by the budgets code. */
  budgetRefused(code: BudgetRefusal): void;
  /** One run of a background job by this replica. */
  jobRun(job: string, outcome: 'ok' | 'failed'): void;
}

export type NowFigure = 'openWebsockets' | 'streamingAnswers';
export type BudgetRefusal = 'BUDGET_EXCEEDED' | 'PRICE_MISSING';

/** OpenTelemetry's advised buckets for `http.server.request.duration` (seconds). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** OpenTelemetry GenAI's advised buckets for `gen_ai.server.time_to_first_token` (seconds). */
const TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** OpenTelemetry GenAI's advised buckets for `gen_ai.client.token.usage` (tokens). */
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216];
/** Methods kept as they are; any other becomes `_OTHER` (OpenTelemetry's rule), so no label grows unbounded. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The one route label of every request no route matched (a raw URL would be unbounded and may carry ids). */
export const UNMATCHED_ROUTE = '(unmatched)';

export function createMetrics(): Metrics {
  const registry = new Registry();
  const http = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP requests, by method, route pattern and status',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const sources: Record<NowFigure, Set<() => number>> = {
    openWebsockets: new Set(),
    streamingAnswers: new Set(),
  };
  const nowGauge = (name: string, help: string, what: NowFigure) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        let sum = 0;
        for (const read of sources[what]) sum += read();
        this.set(sum);
      },
    });
  nowGauge('assistente_websockets_open', 'Agents websockets open on this process', 'openWebsockets');
  nowGauge('assistente_answers_streaming', 'Chat answers streaming on this process now', 'streamingAnswers');
  const ttft = new Histogram({
    name: 'gen_ai_server_time_to_first_token',
    help: 'Seconds from the model call to its first token, by provider:model',
    labelNames: ['gen_ai_request_model'] as const,
    buckets: TTFT_BUCKETS,
    registers: [registry],
  });
  const tokens = new Histogram({
    name: 'gen_ai_client_token_usage',
    help: 'Tokens of each model call, input and output, by provider:model',
    labelNames: ['gen_ai_token_type', 'gen_ai_request_model'] as const,
    buckets: TOKEN_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'assistente_budget_refusals_total',
    help: 'Model calls refused by a budget, by error code',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  // Present at 0 from the start, so a rate over them is defined before the first refusal.
  for (const code of ['BUDGET_EXCEEDED', 'PRICE_MISSING'] satisfies BudgetRefusal[])
    refusals.inc({ code }, 0);
  const jobs = new Counter({
    name: 'assistente_job_runs_total',
    help: 'Background job runs on this replica, by job and outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const shared = processRegistry();

  return {
    contentType: registry.contentType,
    async scrape() {
      // Two expositions with no metric in common: their concatenation is one valid exposition.
      return (await shared.metrics()) + (await registry.metrics());
    },
    httpRequest(method, route, status, seconds) {
      http.observe(
        {
          http_request_method: METHODS.has(method) ? method : '_OTHER',
          http_route: route ?? UNMATCHED_ROUTE,
          http_response_status_code: String(status),
        },
        seconds,
      );
    },
    measure(what, read) {
      sources[what].add(read);
      return () => sources[what].delete(read);
    },
    modelCall(model, firstTokenSeconds, usage) {
      if (firstTokenSeconds !== undefined) ttft.observe({ gen_ai_request_model: model }, firstTokenSeconds);
      if (usage) {
        tokens.observe({ gen_ai_token_type: 'input', gen_ai_request_model: model }, usage.inputTokens);
        tokens.observe({ gen_ai_token_type: 'output', gen_ai_request_model: model }, usage.outputTokens);
      }
    },
    budgetRefused: (code) => refusals.inc({ code }),
    jobRun: (job, outcome) => jobs.inc({ job, outcome }),
  };
}

let shared: Registry | undefined;

/**
 * The process's own figures, built on first use: prom-client's default ones (CPU, memory, main
 * event loop, garbage collection), which watch the process once however many apps it builds, and
 * its worker threads by pool (lib/ts-worker.ts tracks them).
 */
function processRegistry(): Registry {
  if (shared) return shared;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // prom-client lists /proc/self/fd synchronously: with a thousand sockets open that held the
  // event loop for milliseconds each scrape, every stream waiting. Here it is listed off the
  // main thread after each scrape, and a scrape shows the count read after the previous one
  // (only the first waits for it), so no scrape waits for the listing either.
  if (registry.getSingleMetric('process_open_fds')) {
    registry.removeSingleMetric('process_open_fds');
    let count: number | undefined;
    let reading: Promise<void> | undefined;
    const refresh = () => {
      reading ??= readdir('/proc/self/fd')
        .then((fds) => {
          count = fds.length;
        })
        .catch(() => undefined)
        .finally(() => {
          reading = undefined;
        });
      return reading;
    };
    new Gauge({
      name: 'process_open_fds',
      help: 'Number of open file descriptors (read after the previous scrape).',
      registers: [registry],
      async collect() {
        if (count === undefined) await refresh();
        else void refresh();
        if (count !== undefined) this.set(count);
      },
    });
  }
  new Gauge({
    name: 'assistente_worker_threads',
    help: 'Worker threads alive, by pool (model calls, embedded database, document reading)',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { pool } of liveWorkers()) this.inc({ pool });
    },
  });
  /** Each thread's reading at the previous scrape: utilisation is shown over the time between scrapes. */
  const previous = new WeakMap<object, EventLoopUtilization>();
  new Gauge({
    name: 'assistente_worker_event_loop_utilization',
    help: 'Share of time worker threads ran (0 to 1) since the previous scrape, mean of the pool',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const byPool = new Map<string, { sum: number; n: number }>();
      for (const { pool, worker } of liveWorkers()) {
        const now = worker.performance.eventLoopUtilization();
        const before = previous.get(worker);
        const since = before ? worker.performance.eventLoopUtilization(now, before) : now;
        previous.set(worker, now);
        const p = byPool.get(pool) ?? { sum: 0, n: 0 };
        p.sum += Number.isFinite(since.utilization) ? since.utilization : 0;
        p.n += 1;
        byPool.set(pool, p);
      }
      for (const [pool, p] of byPool) this.set({ pool }, p.sum / p.n);
    },
  });
  shared = registry;
  return registry;
}
