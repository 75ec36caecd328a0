// Requests a second of an app route against a bare Fastify route answering the same body, in
// interleaved rounds (so the machine's load weighs on both alike), with autocannon in this process:
// the load generator, apart from the server's. A round where the generator itself used nearly a
// whole core measured the generator, and is counted as saturated.
import autocannon from 'autocannon';
import { ROUNDS, type Spread, spread } from './rounds.ts';

const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 4);
/** Past this share of one core, the generator, not the server, sets the pace. */
const GENERATOR_MAX_CPU_PERCENT = 90;

export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Headers per connection (e.g. a forwarded address per visitor). */
  perClient?: (i: number) => Record<string, string>;
}

export interface Window {
  requestsPerSec: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  generatorCpuPercent: number;
}

async function window(t: Target, seconds: number): Promise<Window> {
  let client = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await autocannon({
    url: t.url,
    method: t.method ?? 'GET',
    headers: t.headers ?? {},
    ...(t.body !== undefined ? { body: t.body } : {}),
    connections: 20,
    duration: seconds,
    ...(t.perClient
      ? {
          setupClient: (c: { setHeaders: (h: Record<string, string>) => void }) =>
            c.setHeaders({ ...(t.headers ?? {}), ...t.perClient?.(++client) }),
        }
      : {}),
  });
  const cpu = process.cpuUsage(cpu0);
  return {
    requestsPerSec: r.requests.average,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    generatorCpuPercent: ((cpu.user + cpu.system) / 1000 / (performance.now() - t0)) * 100,
  };
}

export interface RatioRounds {
  /** app ÷ bare requests a second per round, as a percentage. */
  ratioPercent: Spread;
  appRequestsPerSec: Spread;
  bareRequestsPerSec: Spread;
  appP99Ms: Spread;
  generatorCpuPercent: Spread;
  saturatedRounds: number;
  non2xx: number;
  errors: number;
}

/**
 * One unmeasured window of each first (the JIT compiles each route's path on its first requests),
 * then ROUNDS rounds of a bare window and an app window.
 */
export async function ratioRounds(bare: Target, app: Target): Promise<RatioRounds> {
  await window(bare, 2);
  await window(app, 2);
  const b: Window[] = [];
  const a: Window[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // The side that goes first alternates: neither always follows the other's garbage.
    if (r % 2 === 0) {
      b.push(await window(bare, WINDOW_SECONDS));
      a.push(await window(app, WINDOW_SECONDS));
    } else {
      a.push(await window(app, WINDOW_SECONDS));
      b.push(await window(bare, WINDOW_SECONDS));
    }
  }
  const all = [...a, ...b];
  return {
    ratioPercent: spread(a.map((x, i) => (x.requestsPerSec / (b[i] as Window).requestsPerSec) * 100)),
    appRequestsPerSec: spread(a.map((x) => x.requestsPerSec)),
    bareRequestsPerSec: spread(b.map((x) => x.requestsPerSec)),
    appP99Ms: spread(a.map((x) => x.p99Ms)),
    generatorCpuPercent: spread(all.map((x) => x.generatorCpuPercent)),
    saturatedRounds: all.filter((x) => x.generatorCpuPercent > GENERATOR_MAX_CPU_PERCENT).length,
    non2xx: a.reduce((n, x) => n + x.non2xx, 0),
    errors: a.reduce((n, x) => n + x.errors, 0),
  };
}

/** The generator's share and, when it was saturated, that the figure is refused. */
export function describeGenerator(r: RatioRounds): string {
  const cpu = `load generator ${r.generatorCpuPercent.median.toFixed(0)} % of a core (max ${r.generatorCpuPercent.max.toFixed(0)} %)`;
  return r.saturatedRounds
    ? `${cpu} — REFUSED: saturated in ${r.saturatedRounds} windows (over ${GENERATOR_MAX_CPU_PERCENT} % of a core)`
    : cpu;
}
