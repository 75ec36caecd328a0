// The app for the streaming bench (embedded default: PGlite, one process), with BENCH_USERS
// signed-in users and the model fixture as the domain's provider. Prints one JSON line; answers
// `stats` over IPC with its CPU time and memory.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { VirtualAccountCreateSchema, VirtualAccountLimits } from '@assistente/contracts';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { resolveCaller } from '../apps/server/src/plugins/auth.ts';
import { BENCH_DOMAIN, startBenchApp } from './bench-app.ts';

const fixturePort = Number(process.env.FIXTURE_PORT);
const EMBED_ORIGIN = 'http://shop.bench.test';

const count = Number(process.env.BENCH_USERS ?? 1000);
const bench = await startBenchApp('stream', {
  // Visitors' per-IP limits count each bench visitor at its own forwarded address.
  TRUST_PROXY: 'true',
  PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fixturePort}`,
  // The /metrics bench scrapes this server.
  ...(process.env.METRICS_TOKEN ? { METRICS_TOKEN: process.env.METRICS_TOKEN } : {}),
});
const { ctx, port } = bench;
const domainId = BENCH_DOMAIN;

const tokens: string[] = [];
for (let i = 0; i <= count; i++) {
  tokens.push(await bench.user(`u${i}@bench.test`, `User ${i}`, i === 0 ? 'Admin' : 'Viewer'));
}
const admin = await resolveCaller(ctx, tokens[0] as string);
const provider = await ctx.services.providers.create(
  admin,
  { kind: 'openai-compatible', label: 'Fixture', baseUrl: `http://127.0.0.1:${fixturePort}/v1` },
  { ip: null, userAgent: 'bench' },
);

// For the OpenAI-compatible API's bench: a key of the Admin's.
const apiKey = (await ctx.services.apiKeys.create(admin, { name: 'bench' }, { ip: null, userAgent: 'bench' }))
  .secret;
// …and one of a Viewer whom a budget covers (so wide it never refuses): what admission adds.
const viewer = await resolveCaller(ctx, tokens[1] as string);
const budgetedKey = (
  await ctx.services.apiKeys.create(viewer, { name: 'bench budgeted' }, { ip: null, userAgent: 'bench' })
).secret;
await ctx.services.usage.createBudget(
  admin,
  {
    scope: { kind: 'user', userId: viewer.user.id },
    period: 'month',
    limit: { tokens: 1e12 },
    warnAtPercent: 80,
  },
  { ip: null, userAgent: 'bench' },
);

// For the first-token probe: a santito offering a tool, so what the tools add to an answer's start
// is in the path (the fixture's stamped answers call none).
const toolsAgent = await bench.app.inject({
  method: 'POST',
  url: '/api/v1/agent',
  headers: { authorization: `Bearer ${tokens[0]}` },
  payload: { name: 'Tools', tools: ['builtin:fetch_page'] },
});
if (toolsAgent.statusCode !== 201) throw new Error(`santito: ${toolsAgent.statusCode} ${toolsAgent.body}`);
const toolsAgentId = (toolsAgent.json() as { _id: string })._id;

// For the embedded chat's bench: an embed on the fixture's model for anonymous visitors, with the
// widest limits (each bench visitor comes from its own forwarded address), and a bare Fastify route
// answering a session-shaped body, for the requests/s ratio.
const embed = await ctx.services.virtualAccounts.create(
  admin,
  VirtualAccountCreateSchema.parse({
    displayName: 'Bench',
    allowedOrigins: [EMBED_ORIGIN],
    limits: {
      messagesPerMinute: VirtualAccountLimits.messagesPerMinute.max,
      messagesPerDay: VirtualAccountLimits.messagesPerDay.max,
    },
  }),
  { ip: null, userAgent: 'bench' },
);
const bare = Fastify({ logger: false });
bare.post('/session', async () => ({
  idToken: 'x'.repeat(700),
  refreshToken: 'y'.repeat(43),
  expiresIn: '3600',
  user: { _id: 'va:bench', displayName: 'Visitor' },
  domain: { _id: domainId, displayName: 'Bench' },
  virtualAccount: { displayName: 'Bench', welcome: '', agent: null },
}));
await bare.listen({ port: 0, host: '127.0.0.1' });
const barePort = (bare.server.address() as { port: number }).port;

process.stdout.write(
  `${JSON.stringify({
    port,
    providerId: provider.id,
    tokens: tokens.slice(1),
    apiKey,
    budgetedKey,
    toolsAgentId,
    embedId: embed.virtualAccountId,
    embedOrigin: EMBED_ORIGIN,
    barePort,
  })}\n`,
);
// Where the main thread's time goes when tokens are late: event-loop delay and GC pauses, reset
// with every `stats` so each figure covers the window between two of them.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
let gcPauses: number[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push(e.duration);
}).observe({ entryTypes: ['gc'] });
// A CPU profile of the main thread over one phase of a bench (bench/stream.ts, BENCH_PROFILE_TTFT).
let profiler: Session | undefined;
process.on('message', async (msg) => {
  const op = msg as { op?: string; file?: string };
  if (op?.op === 'profile:start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
    process.send?.({ op: 'profile:started' });
  } else if (op?.op === 'profile:stop' && profiler && op.file) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(op.file, JSON.stringify(profile));
    profiler.disconnect();
    process.send?.({ op: 'profile:stopped' });
  }
});
process.on('message', (msg) => {
  if (msg === 'stats' || msg === 'stats:gc') {
    const cpu = process.cpuUsage();
    // For memory figures, collected first (the bench starts this process with --expose-gc):
    // uncollected garbage would swamp a per-connection figure.
    if (msg === 'stats:gc') (globalThis as { gc?: () => void }).gc?.();
    const mem = process.memoryUsage();
    const loop = {
      p99Ms: loopDelay.percentile(99) / 1e6,
      maxMs: loopDelay.max / 1e6,
      gcMaxMs: gcPauses.reduce((a, b) => Math.max(a, b), 0),
      gcTotalMs: gcPauses.reduce((a, b) => a + b, 0),
    };
    loopDelay.reset();
    gcPauses = [];
    process.send?.({
      cpu,
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      external: mem.external,
      at: performance.now(),
      loop,
    });
  }
});
// For the retention bench (bench/retention.ts): old chats seeded straight into the database, and a
// retention run timed here, while the answers stream.
const oldOwner = await resolveCaller(ctx, await bench.user('old@bench.test', 'Old chats', 'Viewer'));
process.on('message', (msg) => {
  const op = msg as { op?: string; round?: number; messages?: number; perChat?: number };
  if (op?.op === 'retention:seed') {
    void seedOldChats(op.round ?? 0, op.messages ?? 0, op.perChat ?? 100).then((ms) =>
      process.send?.({ op: 'retention:seeded', ms }),
    );
  } else if (op?.op === 'retention:run') {
    const t0 = performance.now();
    void ctx.services.retention.run().then(
      async (counts) => {
        const ms = performance.now() - t0;
        // What the seeding made and is still there: the chats purge may have finished some of the
        // run's chats itself, so the run's own counts need not add up to everything seeded.
        const [left] = (
          (await ctx.db.execute(
            sql`select count(*)::int as n from messages where id like 'old-%'`,
          )) as unknown as {
            rows: { n: number }[];
          }
        ).rows;
        process.send?.({ op: 'retention:ran', ms, counts, left: left?.n ?? -1 });
      },
      (err: unknown) => process.send?.({ op: 'retention:ran', error: String(err) }),
    );
  }
});

/** `messages` messages in chats of `perChat`, a year and more old, in two statements; answers the ms it took. */
async function seedOldChats(round: number, messages: number, perChat: number): Promise<number> {
  const t0 = performance.now();
  const chatsCount = Math.ceil(messages / perChat);
  await ctx.services.retention.putSettings(
    admin,
    {
      chatsDays: 365,
      filesDays: null,
      visitorChatsDays: null,
      apiLogsDays: null,
      exemptPinned: false,
      departments: {},
    },
    { ip: null, userAgent: 'bench' },
  );
  await ctx.db.execute(sql`
    insert into chats (id, user_id, domain_id, title, created_at, updated_at)
    select 'old-' || ${round} || '-' || g, ${oldOwner.user.id}, ${domainId}, 'old ' || g,
           now() - interval '400 days', now() - interval '400 days'
      from generate_series(1, ${chatsCount}) g`);
  await ctx.db.execute(sql`
    insert into messages (id, chat_id, role, content, created_at, updated_at)
    select 'old-' || ${round} || '-m' || g, 'old-' || ${round} || '-' || (1 + (g - 1) / ${perChat}),
           case when g % 2 = 0 then 'assistant' else 'user' end,
           'an old message of a year ago, long enough to look like one ' || g,
           now() - interval '400 days', now() - interval '400 days'
      from generate_series(1, ${messages}) g`);
  return performance.now() - t0;
}

process.on('SIGTERM', async () => {
  await Promise.allSettled([bench.close(), bare.close()]);
  process.exit(0);
});
