// Embedded chat bench (issue 11): session creation's requests/s against a bare Fastify route in the
// same process (alternating windows), then 1,000 anonymous visitors each taking a session and sending a first message
// (session → socket → first streamed token), CONCURRENCY at a time. Each visitor comes from its own
// forwarded address, as visitors of a site would, so the per-IP limits do not stand in the way.
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { EmbeddedSessionSchema, type ServerFrame } from '@assistente/contracts';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { startChild, stats } from './stream.ts';

export interface EmbeddedBenchResult {
  sessions: {
    appRequestsPerSec: number;
    bareRequestsPerSec: number;
    ratio: number;
    /** The server's CPU time per request, each route's (µs): its own cost, whatever the load generator's speed. */
    appCpuMicrosPerRequest: number;
    bareCpuMicrosPerRequest: number;
    /** bare ÷ app CPU per request, as a percentage: what `ratio` would be on a machine whose client never waits. */
    cpuRatio: number;
    rounds: number;
    non2xx: number;
  };
  visitors: {
    count: number;
    concurrency: number;
    failed: number;
    wallSeconds: number;
    perSecond: number;
    sessionP50Ms: number;
    firstTokenP50Ms: number;
    firstTokenP99Ms: number;
  };
  budget: { sessionRatio: number; ok: boolean };
  machine: { loadAverage: number[]; cpus: number };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};
const round = (n: number) => Math.round(n * 100) / 100;
/** Rounds of one window per route; each window lasts WINDOW seconds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const WINDOW = 2;

/** 10.x.y.z addresses, one per visitor. */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** The server's CPU time so far (all its threads, µs). */
const cpuOf = async (child: ChildProcess) => {
  const { cpu } = await stats(child);
  return cpu.user + cpu.system;
};

async function rate(server: ChildProcess, url: string, headers: Record<string, string>, forwarded: boolean) {
  let i = 0;
  const cpuBefore = await cpuOf(server);
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{}',
    connections: 20,
    duration: WINDOW,
    // Distinct visitors: the session route's per-IP counters see a crowd, not one client.
    ...(forwarded
      ? {
          setupClient: (client: { setHeaders: (h: Record<string, string>) => void }) => {
            client.setHeaders({
              'content-type': 'application/json',
              ...headers,
              'x-forwarded-for': addressOf(++i),
            });
          },
        }
      : {}),
  });
  const cpuMicros = (await cpuOf(server)) - cpuBefore;
  return {
    requestsPerSec: r.requests.average,
    cpuMicrosPerRequest: cpuMicros / Math.max(1, r.requests.total),
    non2xx: r.non2xx,
  };
}

/** One visitor: a session, the socket, a first message; milliseconds to the session and to the first token. */
async function visitor(
  i: number,
  base: string,
  embedId: string,
  origin: string,
): Promise<{ sessionMs: number; firstTokenMs: number }> {
  const forwarded = addressOf(100_000 + i);
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/embedded/${embedId}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': forwarded },
    body: '{}',
  });
  if (res.status !== 200) throw new Error(`session answered ${res.status}: ${await res.text()}`);
  const session = EmbeddedSessionSchema.parse(await res.json());
  const sessionMs = performance.now() - t0;
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/agents/chat/`, {
    perMessageDeflate: false,
    headers: { 'x-forwarded-for': forwarded },
  });
  try {
    const firstToken = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no first token within 30 s')), 30_000);
      ws.once('error', reject);
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as ServerFrame;
        if (frame.type === 'ready') {
          ws.send(JSON.stringify({ type: 'chat.send', requestId: `v${i}`, chatId: null, content: 'Olá' }));
        } else if (frame.type === 'message.delta') {
          clearTimeout(timer);
          resolve(performance.now() - t0);
        } else if (frame.type === 'error') {
          clearTimeout(timer);
          reject(new Error(`${frame.code}: ${frame.message}`));
        }
      });
      ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token: session.idToken })));
    });
    return { sessionMs, firstTokenMs: firstToken };
  } finally {
    ws.close();
  }
}

export async function benchEmbedded(): Promise<EmbeddedBenchResult> {
  const count = Number(process.env.BENCH_VISITORS ?? 1000);
  const concurrency = Number(process.env.BENCH_VISITOR_CONCURRENCY ?? 50);
  const children: ChildProcess[] = [];
  try {
    const fixture = await startChild('bench/stream-fixture.ts', {});
    children.push(fixture.child);
    const server = await startChild(
      'bench/stream-server.ts',
      { FIXTURE_PORT: String(fixture.info.port), BENCH_USERS: '1' },
      true,
    );
    children.push(server.child);
    const { port, barePort, embedId, embedOrigin } = server.info as {
      port: number;
      barePort: number;
      embedId: string;
      embedOrigin: string;
    };
    const base = `http://127.0.0.1:${port}`;

    // Alternating windows, so a machine whose load changes during the run weighs on both sides,
    // after one unmeasured window of each: the first requests of a route run before the JIT has
    // compiled its path, which weighed on the app's first window only.
    const bareUrl = `http://127.0.0.1:${barePort}/session`;
    const appUrl = `${base}/api/v1/embedded/${embedId}/session`;
    const appHeaders = { origin: embedOrigin };
    await rate(server.child, bareUrl, {}, false);
    await rate(server.child, appUrl, appHeaders, true);
    const bare = { requestsPerSec: 0, cpu: 0 };
    const app = { requestsPerSec: 0, cpu: 0, non2xx: 0 };
    for (let r = 0; r < ROUNDS; r++) {
      const b = await rate(server.child, bareUrl, {}, false);
      const a = await rate(server.child, appUrl, appHeaders, true);
      bare.requestsPerSec += b.requestsPerSec / ROUNDS;
      bare.cpu += b.cpuMicrosPerRequest / ROUNDS;
      app.requestsPerSec += a.requestsPerSec / ROUNDS;
      app.cpu += a.cpuMicrosPerRequest / ROUNDS;
      app.non2xx += a.non2xx;
    }
    const ratio = round((app.requestsPerSec / bare.requestsPerSec) * 100);

    const sessionMs: number[] = [];
    const firstTokenMs: number[] = [];
    let failed = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          try {
            const r = await visitor(i, base, embedId, embedOrigin);
            sessionMs.push(r.sessionMs);
            firstTokenMs.push(r.firstTokenMs);
          } catch (err) {
            failed++;
            if (failed <= 3) process.stderr.write(`embedded bench: visitor ${i} failed: ${String(err)}\n`);
          }
        }
      }),
    );
    const wallSeconds = (performance.now() - started) / 1000;
    return {
      sessions: {
        appRequestsPerSec: round(app.requestsPerSec),
        bareRequestsPerSec: round(bare.requestsPerSec),
        ratio,
        appCpuMicrosPerRequest: round(app.cpu),
        bareCpuMicrosPerRequest: round(bare.cpu),
        cpuRatio: round((bare.cpu / app.cpu) * 100),
        rounds: ROUNDS,
        non2xx: app.non2xx,
      },
      visitors: {
        count,
        concurrency,
        failed,
        wallSeconds: round(wallSeconds),
        perSecond: round((count - failed) / wallSeconds),
        sessionP50Ms: round(pct(sessionMs, 50)),
        firstTokenP50Ms: round(pct(firstTokenMs, 50)),
        firstTokenP99Ms: round(pct(firstTokenMs, 99)),
      },
      budget: { sessionRatio: 40, ok: ratio >= 40 && failed === 0 && app.non2xx === 0 },
      machine: { loadAverage: os.loadavg().map(round), cpus: os.cpus().length },
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await benchEmbedded(), null, 2)}\n`);
}
