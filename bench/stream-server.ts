// The app for the streaming bench (embedded default: PGlite, one process), with BENCH_USERS
// signed-in users and the model fixture as the domain's provider. Prints one JSON line; answers
// `stats` over IPC with its CPU time and memory.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { departments, domains, users } from '../apps/server/src/db/schema/index.ts';
import { eulaRecord, newDepartmentId } from '../apps/server/src/modules/accounts/provision.ts';
import { providersService } from '../apps/server/src/modules/providers/index.ts';
import { resolveCaller } from '../apps/server/src/plugins/auth.ts';

const fixturePort = Number(process.env.FIXTURE_PORT);

/** With BENCH_DATABASE_URL, a fresh database on that server, dropped on exit. */
async function benchDatabase(): Promise<{ url?: string; drop: () => Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { drop: async () => {} };
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
const database = await benchDatabase();
const count = Number(process.env.BENCH_USERS ?? 1000);
const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-bench-stream-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMITS: 'off',
  PUBLIC_URL: 'http://127.0.0.1:1',
  PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fixturePort}`,
  // The scale-out shape (PostgreSQL) when asked; the embedded default (PGlite) otherwise.
  ...(database.url ? { DATABASE_URL: database.url } : {}),
});
const { app, ctx } = await buildApp({ config, bootstrap: false, logger: { level: 'warn' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;

const domainId = 'bench.test';
await ctx.db.insert(domains).values({
  id: domainId,
  displayName: 'Bench',
  premium: true,
  creator: { name: 'Bench', email: 'bench@bench.test' },
});
const departmentId = newDepartmentId();
await ctx.db.insert(departments).values({ id: departmentId, domainId, displayName: 'Geral' });

// Accounts without passwords: nothing to hash, so a thousand users take seconds.
const tokens: string[] = [];
for (let i = 0; i <= count; i++) {
  const email = `u${i}@bench.test`;
  const account = await ctx.identity.createAccount({ email, displayName: `User ${i}`, emailVerified: true });
  await ctx.db.insert(users).values({
    id: email,
    email,
    displayName: `User ${i}`,
    domainId,
    departmentId,
    role: i === 0 ? 'Admin' : 'Viewer',
    creator: { name: 'Bench', email: 'bench@bench.test' },
    eula: eulaRecord(true),
  });
  tokens.push((await ctx.identity.issueSession(account.uid, { kind: 'web', name: 'bench' })).idToken);
}
const admin = await resolveCaller(ctx, tokens[0] as string);
const provider = await providersService(ctx).create(
  admin,
  { kind: 'openai-compatible', label: 'Fixture', baseUrl: `http://127.0.0.1:${fixturePort}/v1` },
  { ip: null, userAgent: 'bench' },
);

process.stdout.write(`${JSON.stringify({ port, providerId: provider.id, tokens: tokens.slice(1) })}\n`);
// Where the main thread's time goes when tokens are late: event-loop delay and GC pauses, reset
// with every `stats` so each figure covers the window between two of them.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
let gcPauses: number[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push(e.duration);
}).observe({ entryTypes: ['gc'] });
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
process.on('SIGTERM', async () => {
  await app.close();
  await database.drop().catch(() => {});
  process.exit(0);
});
