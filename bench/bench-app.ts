// The app as the benches' child processes run it: a fresh database (PGlite, or a new database on
// BENCH_DATABASE_URL), one premium domain with a department, listening on loopback.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import { departments, domains, users } from '../apps/server/src/db/schema/index.ts';
import { eulaRecord, newDepartmentId } from '../apps/server/src/modules/accounts/provision.ts';

/** With BENCH_DATABASE_URL, a fresh database on that server, dropped on exit; the embedded one otherwise. */
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

export const BENCH_DOMAIN = 'bench.test';

/**
 * Builds and starts the app with the benches' settings plus `env` (rate limits off, quiet logs),
 * and the bench domain. `close` stops it, drops its database and removes its data directory.
 */
export async function startBenchApp(name: string, env: Record<string, string>) {
  const database = await benchDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), `assistente-bench-${name}-`));
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMITS: 'off',
    PUBLIC_URL: 'http://127.0.0.1:1',
    // The scale-out shape (PostgreSQL) when asked; the embedded default (PGlite) otherwise.
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const { app, ctx } = await buildApp({ config, bootstrap: false, logger: { level: 'warn' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  await ctx.db.insert(domains).values({
    id: BENCH_DOMAIN,
    displayName: 'Bench',
    premium: true,
    creator: { name: 'Bench', email: 'bench@bench.test' },
  });
  const departmentId = newDepartmentId();
  await ctx.db.insert(departments).values({ id: departmentId, domainId: BENCH_DOMAIN, displayName: 'Geral' });
  return {
    app,
    ctx,
    port,
    databaseKind: database.url ? ('postgres' as const) : ('pglite' as const),
    /** A signed-in user of the bench domain (no password: nothing to hash); their id token. */
    async user(email: string, displayName: string, role: 'Admin' | 'Viewer'): Promise<string> {
      return benchUser(ctx, { email, displayName, role, departmentId });
    },
    async close(): Promise<void> {
      await app.close().catch(() => {});
      await database.drop().catch(() => {});
      // A bench's database can be gigabytes on disk: never left behind in the temp dir.
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function benchUser(
  ctx: AppContext,
  u: { email: string; displayName: string; role: 'Admin' | 'Viewer'; departmentId: string },
): Promise<string> {
  const account = await ctx.identity.createAccount({
    email: u.email,
    displayName: u.displayName,
    emailVerified: true,
  });
  await ctx.db.insert(users).values({
    id: u.email,
    email: u.email,
    displayName: u.displayName,
    domainId: BENCH_DOMAIN,
    departmentId: u.departmentId,
    role: u.role,
    creator: { name: 'Bench', email: 'bench@bench.test' },
    eula: eulaRecord(true),
  });
  return (await ctx.identity.issueSession(account.uid, { kind: 'web', name: 'bench' })).idToken;
}
