import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignInResponseSchema } from '@assistente/contracts';
import { count } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Built, buildApp } from './app.ts';
import { bootstrapFirstRun } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { departments, domains, users } from './db/schema/index.ts';
import { buildTestApp, type TestApp } from './test/app.ts';
import { testDb } from './test/db.ts';
import { makeUser } from './test/factories.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await buildTestApp(env);
  cleanups.push(() => t.close());
  return t;
}

function captureStdout(): () => string[] {
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  return () => spy.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('First run'));
}

async function counts(t: Pick<Built, 'ctx'>) {
  const [u] = await t.ctx.db.select({ n: count() }).from(users);
  const [d] = await t.ctx.db.select({ n: count() }).from(domains);
  const [p] = await t.ctx.db.select({ n: count() }).from(departments);
  return { users: u?.n, domains: d?.n, departments: p?.n };
}

async function signIn(t: TestApp, email: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/identity/v1/accounts:signInWithPassword',
    payload: { email, password, returnSecureToken: true },
  });
}

describe('first-run bootstrap', () => {
  it('without ADMIN_* creates admin@localhost with a random password, printed once', async () => {
    const t = await app();
    const lines = captureStdout();
    await bootstrapFirstRun(t.ctx);
    await bootstrapFirstRun(t.ctx);
    const printed = lines();
    expect(printed).toHaveLength(1);
    const m =
      /^First run: sign in at http:\/\/localhost:3999\/auth\/login as admin@localhost with password (\S+)\n$/.exec(
        printed[0] ?? '',
      );
    expect(m).not.toBeNull();
    const password = m?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);

    const [admin] = await t.ctx.db.select().from(users);
    expect(admin).toMatchObject({
      id: 'admin@localhost',
      role: 'SuperAdmin',
      domainId: 'localhost',
      active: true,
    });
    expect(admin?.eula).toMatchObject({ accept: true, version: 'v1', pendingRevision: false });
    expect(Date.parse(admin?.eula.timestamp ?? '')).not.toBeNaN();
    const [domain] = await t.ctx.db.select().from(domains);
    expect(domain).toMatchObject({ id: 'localhost', premium: true, active: true });
    const [dept] = await t.ctx.db.select().from(departments);
    expect(dept).toMatchObject({ domainId: 'localhost', displayName: 'Geral' });
    expect(admin?.departmentId).toBe(dept?.id);
    expect(await counts(t)).toEqual({ users: 1, domains: 1, departments: 1 });

    const res = await signIn(t, 'admin@localhost', password);
    expect(res.statusCode, res.body).toBe(200);
    const { idToken } = SignInResponseSchema.parse(res.json());
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/admin@localhost',
      headers: { authorization: `Bearer ${idToken}` },
    });
    expect(me.statusCode).toBe(200);
  });

  it('with ADMIN_EMAIL/ADMIN_PASSWORD creates that SuperAdmin in the email’s premium domain, printing nothing', async () => {
    const t = await app({ ADMIN_EMAIL: 'Boss@Acme.com.br', ADMIN_PASSWORD: 'Correct-Horse-42-Battery' });
    const lines = captureStdout();
    await bootstrapFirstRun(t.ctx);
    await bootstrapFirstRun(t.ctx);
    expect(lines()).toHaveLength(0);
    const [admin] = await t.ctx.db.select().from(users);
    expect(admin).toMatchObject({ id: 'boss@acme.com.br', role: 'SuperAdmin', domainId: 'acme.com.br' });
    expect(admin?.eula.accept).toBe(true);
    const [domain] = await t.ctx.db.select().from(domains);
    expect(domain).toMatchObject({ id: 'acme.com.br', premium: true });
    expect(await counts(t)).toEqual({ users: 1, domains: 1, departments: 1 });
    expect((await signIn(t, 'boss@acme.com.br', 'Correct-Horse-42-Battery')).statusCode).toBe(200);
  });

  it('does nothing when any user exists', async () => {
    const t = await app();
    await makeUser(t.ctx);
    const before = await counts(t);
    const lines = captureStdout();
    await bootstrapFirstRun(t.ctx);
    expect(lines()).toHaveLength(0);
    expect(await counts(t)).toEqual(before);
  });

  it('two replicas starting at once create one admin', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-boot-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const base = { DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3999', LOG_LEVEL: 'warn' };
    const replicas: Built[] = [];
    const url = process.env.TEST_DATABASE_URL;
    if (process.env.TEST_DB === 'postgres' && url) {
      // Two real replicas: separate pools on one fresh database.
      const name = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      });
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      for (let i = 0; i < 2; i++) {
        const config = loadConfig({ ...base, DATABASE_URL: dbUrl.toString(), KEY_PREFIX: `b${i}:` });
        replicas.push(await buildApp({ config, bootstrap: false, logger: false }));
      }
    } else {
      const database: Database = process.env.TEST_DB === 'postgres' ? await testDb() : await openDatabase({});
      cleanups.push(() => database.close());
      for (let i = 0; i < 2; i++) {
        const config = loadConfig({ ...base, KEY_PREFIX: `b${i}:` });
        replicas.push(await buildApp({ config, database, bootstrap: false, logger: false }));
      }
    }
    for (const r of replicas) cleanups.push(() => r.app.close());
    const lines = captureStdout();
    await Promise.all(replicas.map((r) => bootstrapFirstRun(r.ctx)));
    expect(lines()).toHaveLength(1);
    expect(await counts(replicas[0]!)).toEqual({ users: 1, domains: 1, departments: 1 });
  });
});
