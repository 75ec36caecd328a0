// Authenticated GET /api/v1/user/{id} against a bare Fastify route answering the same JSON, both
// served by one child process so the load generator never shares the server's event loop.
// Run alone: `node --import tsx bench/user-read.ts`.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);

export interface BenchServer {
  appPort: number;
  barePort: number;
  idToken: string;
  email: string;
  password: string;
  /** The server process, for measures of its own CPU time. */
  pid: number;
  stop(): void;
}

/** Starts bench/server-child.ts and waits for its ports and the admin's token. */
export async function startBenchServer(): Promise<BenchServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/server-child.ts')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const info = JSON.parse(line) as Omit<BenchServer, 'stop' | 'pid'>;
  return { ...info, pid: child.pid ?? 0, stop: () => child.kill('SIGTERM') };
}

interface Load {
  requestsPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Load> {
  const r = await autocannon({ url, headers, connections: 20, pipelining: 1, duration: DURATION });
  return {
    requestsPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

export interface UserReadBench {
  bare: { requestsPerSec: number; p99Ms: number };
  app: { requestsPerSec: number; p99Ms: number; errors: number; non2xx: number };
  ratio: number;
  budget: { minRatio: number; ok: boolean };
}

export async function benchUserRead(server: BenchServer): Promise<UserReadBench> {
  const { appPort, barePort, idToken, email } = server;
  const headers = { authorization: `Bearer ${idToken}`, 'x-endpoint-api-userinfo': idToken };
  const userPath = `/api/v1/user/${encodeURIComponent(email)}`;
  // Warm both, then alternate so drift in machine load hits both sides alike.
  await autocannon({ url: `http://127.0.0.1:${appPort}${userPath}`, headers, connections: 10, duration: 2 });
  await autocannon({ url: `http://127.0.0.1:${barePort}${userPath}`, connections: 10, duration: 2 });
  const bare1 = await load(`http://127.0.0.1:${barePort}${userPath}`, {});
  const app1 = await load(`http://127.0.0.1:${appPort}${userPath}`, headers);
  const bare2 = await load(`http://127.0.0.1:${barePort}${userPath}`, {});
  const app2 = await load(`http://127.0.0.1:${appPort}${userPath}`, headers);
  const bareRps = (bare1.requestsPerSec + bare2.requestsPerSec) / 2;
  const appRps = (app1.requestsPerSec + app2.requestsPerSec) / 2;
  const ratio = appRps / bareRps;
  const non2xx = app1.non2xx + app2.non2xx;
  return {
    bare: { requestsPerSec: bareRps, p99Ms: Math.max(bare1.p99, bare2.p99) },
    app: {
      requestsPerSec: appRps,
      p99Ms: Math.max(app1.p99, app2.p99),
      errors: app1.errors + app2.errors,
      non2xx,
    },
    ratio,
    budget: { minRatio: 0.6, ok: ratio >= 0.6 && non2xx === 0 },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startBenchServer();
  try {
    const result = await benchUserRead(server);
    console.log(JSON.stringify(result, null, 2));
    if (!result.budget.ok) process.exitCode = 1;
  } finally {
    server.stop();
  }
}
