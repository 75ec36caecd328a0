import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisReady } from './lib/redis.ts';
import { buildTestApp, type TestApp } from './test/app.ts';
import { makeUser, type TestUser } from './test/factories.ts';
import { freePort } from './test/server-process.ts';

/**
 * Redis is optional at run time too: a replica whose Redis is away at start, or goes away later,
 * keeps serving sign-in, REST and fan-out on its own, and picks Redis up again when it returns.
 * A real redis-server, started and killed (-9) by this test.
 */
function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('Ready to accept connections')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
}

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function signIn(t: TestApp, u: TestUser) {
  const started = Date.now();
  const res = await t.app.inject({
    method: 'POST',
    url: '/identity/v1/accounts:signInWithPassword',
    payload: { email: u.user.email, password: u.password, returnSecureToken: true },
  });
  return { status: res.statusCode, ms: Date.now() - started };
}

async function fanOut(t: TestApp, channel: string): Promise<unknown[]> {
  const got: unknown[] = [];
  const off = t.ctx.bus.subscribe(channel, (m) => got.push(m));
  await new Promise((r) => setTimeout(r, 100));
  await t.ctx.bus.publish(channel, { n: 1 });
  await until('the message', () => got.length > 0, 5_000).catch(() => {});
  off();
  return got;
}

describe('with Redis gone', { timeout: 120_000 }, () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await buildTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
    user = await makeUser(t.ctx, { role: 'Viewer' });
    await until('Redis', () => redisReady(t.ctx.redis));
  });

  afterAll(async () => {
    redis?.kill('SIGKILL');
    await t?.close();
  });

  it('keeps serving sign-in, REST and local fan-out at once, says so in /readyz, and resumes when Redis returns', async () => {
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready' });

    redis?.kill('SIGKILL');
    await until('the disconnect', () => !redisReady(t.ctx.redis));

    for (let i = 0; i < 5; i++) {
      const r = await signIn(t, user);
      expect(r.status).toBe(200);
      // Not the ~17 s of retries it took before; the budget itself is in the bench.
      expect(r.ms).toBeLessThan(2_000);
    }
    const me = await t.app.inject({ url: `/api/v1/user/${user.user.email}`, headers: user.headers });
    expect(me.statusCode).toBe(200);
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready', degraded: ['redis'] });
    expect(await fanOut(t, 'outage')).toEqual([{ n: 1 }]);

    redis = await startRedis(port);
    await until('the reconnect', async () => (await t.app.inject('/readyz')).json().degraded === undefined);
    expect((await signIn(t, user)).status).toBe(200);
    expect(await fanOut(t, 'back')).toEqual([{ n: 1 }]);
  });
});

describe('with Redis unreachable from the start', { timeout: 60_000 }, () => {
  it('starts, signs in and answers, degraded', async () => {
    const t = await buildTestApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const user = await makeUser(t.ctx, { role: 'Viewer' });
      expect((await signIn(t, user)).status).toBe(200);
      expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready', degraded: ['redis'] });
      expect(await fanOut(t, 'never-connected')).toEqual([{ n: 1 }]);
    } finally {
      await t.close();
    }
  });
});
