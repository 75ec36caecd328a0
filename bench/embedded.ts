// Embedded chat bench (issue 11): session creation's requests/s against a bare Fastify route in the
// same process (alternating windows), then 1,000 anonymous visitors each taking a session and sending a first message
// (session → socket → first streamed token), CONCURRENCY at a time. Each visitor comes from its own
// forwarded address, as visitors of a site would, so the per-IP limits do not stand in the way.
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { EmbeddedSessionSchema, type ServerFrame } from '@assistente/contracts';
import WebSocket from 'ws';
import { startChild } from './child.ts';
import { describeGenerator, type RatioRounds, ratioRounds } from './http-ratio.ts';
import { describeSpread, verdict } from './rounds.ts';

/** The bar: a session costs the app at most so much more than a bare route's answer. */
const MIN_SESSION_RATIO_PERCENT = 55;

export interface EmbeddedBenchResult {
  sessions: RatioRounds;
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
  budget: { minSessionRatioPercent: number; ok: boolean };
  machine: { loadAverage: number[]; cpus: number };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};
const round = (n: number) => Math.round(n * 100) / 100;
/** 10.x.y.z addresses, one per visitor. */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

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

    const sessions = await ratioRounds(
      {
        url: `http://127.0.0.1:${barePort}/session`,
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      },
      {
        url: `${base}/api/v1/embedded/${embedId}/session`,
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', origin: embedOrigin },
        // Distinct visitors: the session route's per-IP counters see a crowd, not one client.
        perClient: (i) => ({ 'x-forwarded-for': addressOf(i) }),
      },
    );

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
      sessions,
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
      budget: {
        minSessionRatioPercent: MIN_SESSION_RATIO_PERCENT,
        ok:
          sessions.ratioPercent.median >= MIN_SESSION_RATIO_PERCENT &&
          sessions.saturatedRounds === 0 &&
          failed === 0 &&
          sessions.non2xx === 0,
      },
      machine: { loadAverage: os.loadavg().map(round), cpus: os.cpus().length },
    };
  } finally {
    for (const c of children) c.kill('SIGTERM');
  }
}

export function describeEmbedded(r: EmbeddedBenchResult): string {
  const v = r.visitors;
  return `Embedded chat: session creation ${describeSpread(r.sessions.ratioPercent, ' %')} of a bare route's requests a second (budget ≥ ${r.budget.minSessionRatioPercent} %), ${r.sessions.appRequestsPerSec.median.toFixed(0)} vs ${r.sessions.bareRequestsPerSec.median.toFixed(0)} req/s; ${describeGenerator(r.sessions)}; ${v.count} anonymous visitors, ${v.concurrency} at a time: ${v.failed} failed, ${v.perSecond}/s, session p50 ${v.sessionP50Ms} ms, first token p50 ${v.firstTokenP50Ms} ms, p99 ${v.firstTokenP99Ms} ms ${verdict(r.budget.ok)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchEmbedded();
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  console.log(describeEmbedded(r));
}
