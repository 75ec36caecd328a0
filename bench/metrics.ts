// /metrics bench (docs/ARCHITECTURE.md#metrics): a Prometheus scrape while 1,000 answers stream, each to its own
// signed-in websocket, on the streaming bench's server and model fixture (each in its own process;
// this process is the clients and the scraper). Budget: the scrape's own cost ≤ 50 ms — each
// round's scrape less the `GET /healthz` timed beside it (the wait any request has behind the
// streams on this machine, client and server sharing its cores), the median over the rounds.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { startChild } from './child.ts';
import { BenchSocket } from './stream-clients.ts';

export interface MetricsBenchResult {
  config: { streams: number; rounds: number; tokenIntervalMs: number; database: 'pglite' | 'postgres' };
  /** Read from the scrape itself: what the server counted while it was timed. */
  during: { websocketsOpen: number; answersStreaming: number; scrapeBytes: number };
  /**
   * The server's own time per scrape (its request histogram for `/metrics`, earlier scrapes):
   * the rest of the client's time is the wait behind 1,000 streams on its event loop.
   */
  serverMeanMs: number;
  scrapeMs: { median: number; p90: number; max: number; samples: number[] };
  /**
   * `GET /healthz` timed the same way, alternating with the scrapes: what any request waits behind
   * the streams on this machine, which the scrape's figure includes.
   */
  healthzMs: { median: number };
  /** Each round's scrape less its `/healthz`: what the scrape itself costs, machine wait removed. */
  ownMs: { median: number; samples: number[] };
  budget: { maxMedianMs: number; ok: boolean };
  machine: { loadAverage: number[]; cpus: number };
}

const round = (n: number) => Math.round(n * 100) / 100;
const gauge = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
/** The sum of a family's samples whose labels include `labels` (written as in the text). */
const sumOf = (text: string, name: string, labels: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && l.includes(labels))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

export async function benchMetrics(): Promise<MetricsBenchResult> {
  const streams = Number(process.env.BENCH_STREAMS ?? 1000);
  const rounds = Number(process.env.BENCH_METRICS_ROUNDS ?? 15);
  const sendRate = Number(process.env.BENCH_SEND_RATE ?? 100);
  const tokenIntervalMs = Number(process.env.BENCH_TOKEN_MS ?? 100);
  const token = randomBytes(24).toString('base64url');

  const fixture = await startChild('bench/stream-fixture.ts', {});
  const server = await startChild(
    'bench/stream-server.ts',
    { FIXTURE_PORT: String(fixture.info.port), BENCH_USERS: String(streams), METRICS_TOKEN: token },
    true,
  );
  const { port, providerId, tokens } = server.info as { port: number; providerId: string; tokens: string[] };
  const timed = async (path: string): Promise<{ ms: number; text: string }> => {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text}`);
    return { ms: performance.now() - t0, text };
  };
  const scrape = () => timed('/metrics');

  try {
    const wsUrl = `ws://127.0.0.1:${port}/api/v1/agents/chat/`;
    const sockets: BenchSocket[] = [];
    for (let i = 0; i < streams; i += 100) {
      sockets.push(
        ...(await Promise.all(
          tokens.slice(i, Math.min(i + 100, streams)).map((t) => BenchSocket.open(wsUrl, t)),
        )),
      );
    }
    // Answers far longer than the bench (12,000 tokens, 100 ms apart as in the streaming bench):
    // every one is still streaming while the scrapes are timed. Sends are paced as there too.
    const firstTokens = sockets.map(async (s, i) => {
      await new Promise((r) => setTimeout(r, (i / sendRate) * 1000));
      const delta = s.wait((f) => f.type === 'message.delta', 180_000);
      s.send({
        type: 'chat.send',
        requestId: `m${i}`,
        chatId: null,
        content: 'Stream please',
        params: { model: `${providerId}:stamp-12000x${tokenIntervalMs}` },
      });
      await delta;
    });
    await Promise.all(firstTokens);

    // Warm-up scrapes (first collection, JIT), then the timed rounds, 200 ms apart.
    for (let i = 0; i < 3; i++) await scrape();
    const samples: number[] = [];
    const control: number[] = [];
    let last = '';
    for (let i = 0; i < rounds; i++) {
      const { ms, text } = await scrape();
      samples.push(ms);
      last = text;
      await new Promise((r) => setTimeout(r, 100));
      control.push((await timed('/healthz')).ms);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const s of sockets) s.ws.close();

    const sorted = [...samples].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    const healthz = [...control].sort((a, b) => a - b)[Math.floor(control.length / 2)] as number;
    const own = samples.map((ms, i) => ms - (control[i] as number));
    const ownMedian = [...own].sort((a, b) => a - b)[Math.floor(own.length / 2)] as number;
    const budget = { maxMedianMs: 50, ok: ownMedian <= 50 };
    return {
      config: {
        streams,
        rounds,
        tokenIntervalMs,
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
      },
      during: {
        websocketsOpen: gauge(last, 'assistente_websockets_open'),
        answersStreaming: gauge(last, 'assistente_answers_streaming'),
        scrapeBytes: Buffer.byteLength(last),
      },
      serverMeanMs: round(
        (sumOf(last, 'http_server_request_duration_seconds_sum', 'http_route="/metrics"') /
          sumOf(last, 'http_server_request_duration_seconds_count', 'http_route="/metrics"')) *
          1000,
      ),
      scrapeMs: {
        median: round(median),
        p90: round(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)] as number),
        max: round(sorted.at(-1) as number),
        samples: samples.map(round),
      },
      healthzMs: { median: round(healthz) },
      ownMs: { median: round(ownMedian), samples: own.map(round) },
      budget: { ...budget, ok: budget.ok && gauge(last, 'assistente_answers_streaming') === streams },
      machine: { loadAverage: os.loadavg().map(round), cpus: os.cpus().length },
    };
  } finally {
    server.child.kill('SIGTERM');
    fixture.child.kill('SIGTERM');
  }
}

export const describeMetrics = (m: MetricsBenchResult): string =>
  `/metrics scrape with ${m.during.answersStreaming} answers streaming on ${m.during.websocketsOpen} open sockets: its own cost (each round less the GET /healthz beside it) median ${m.ownMs.median} ms (budget ≤ ${m.budget.maxMedianMs} ms); as the client waits: median ${m.scrapeMs.median} ms, p90 ${m.scrapeMs.p90} ms, max ${m.scrapeMs.max} ms over ${m.config.rounds} rounds; GET /healthz alongside: median ${m.healthzMs.median} ms; the server's own time ${m.serverMeanMs} ms a scrape; ${(m.during.scrapeBytes / 1024).toFixed(1)} KiB ${m.budget.ok ? 'OK' : 'OVER BUDGET'}`;

// `node --import tsx bench/metrics.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchMetrics();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n${describeMetrics(result)}\n`);
  process.exit(result.budget.ok ? 0 : 1);
}
