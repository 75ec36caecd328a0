// Authenticated GET /api/v1/user/{id} against a bare Fastify route answering the same JSON, both
// served by one child process (compiled, bench/server-child.ts) so the load generator never shares
// the server's event loop. Run alone: `node --import tsx bench/user-read.ts`.
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { startChild } from './child.ts';
import { describeGenerator, type RatioRounds, ratioRounds } from './http-ratio.ts';
import { describeSpread, verdict } from './rounds.ts';

export interface BenchServer {
  appPort: number;
  barePort: number;
  idToken: string;
  email: string;
  password: string;
  /** The server process, for measures of its own CPU time and memory. */
  child: ChildProcess;
  pid: number;
  stop(): void;
}

/** Starts bench/server-child.ts and waits for its ports and the admin's token. */
export async function startBenchServer(): Promise<BenchServer> {
  const { child, info } = await startChild('bench/server-child.ts', {});
  const i = info as Omit<BenchServer, 'stop' | 'pid' | 'child'>;
  return { ...i, child, pid: child.pid ?? 0, stop: () => child.kill('SIGTERM') };
}

/** The bar: the app's authenticated read answers at least this share of the bare route's rate. */
const MIN_RATIO_PERCENT = 75;

export interface UserReadBench extends RatioRounds {
  budget: { minRatioPercent: number; ok: boolean };
}

export async function benchUserRead(server: BenchServer): Promise<UserReadBench> {
  const { appPort, barePort, idToken, email } = server;
  const userPath = `/api/v1/user/${encodeURIComponent(email)}`;
  // The same request to both: the bare route reads the same bytes and ignores the token, so what
  // differs is the app's work, not the input's size.
  const headers = { authorization: `Bearer ${idToken}`, 'x-endpoint-api-userinfo': idToken };
  const r = await ratioRounds(
    { url: `http://127.0.0.1:${barePort}${userPath}`, headers },
    { url: `http://127.0.0.1:${appPort}${userPath}`, headers },
  );
  return {
    ...r,
    budget: {
      minRatioPercent: MIN_RATIO_PERCENT,
      ok: r.ratioPercent.median >= MIN_RATIO_PERCENT && r.non2xx === 0 && r.saturatedRounds === 0,
    },
  };
}

export function describeUserRead(r: UserReadBench): string {
  return `Authenticated GET /api/v1/user/{id} vs a bare Fastify route: ${describeSpread(r.ratioPercent, ' %')} of its requests a second (budget ≥ ${r.budget.minRatioPercent} %) ${verdict(r.budget.ok)}; app ${r.appRequestsPerSec.median.toFixed(0)} req/s p99 ${r.appP99Ms.median} ms, bare ${r.bareRequestsPerSec.median.toFixed(0)} req/s; ${describeGenerator(r)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startBenchServer();
  try {
    const result = await benchUserRead(server);
    console.log(JSON.stringify(result, null, 2));
    console.log(describeUserRead(result));
    if (!result.budget.ok) process.exitCode = 1;
  } finally {
    server.stop();
  }
}
