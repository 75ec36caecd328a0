import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetPeriods } from '../../db/schema/index.ts';
import { type AgentsTestApp, startAgentsTestApp } from '../../test/agents-app.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';
import { freePort, type ServerProcess, startServerProcess } from '../../test/server-process.ts';

/**
 * 50 sends at once against a budget worth 5 calls, split over two replicas of one PostgreSQL, with
 * Redis down: the budget is held in the database (docs/ARCHITECTURE.md#usage-prices-and-budgets),
 * so no more than 5 reach the model, whichever replica takes them.
 */
const SENDS = 50;
const OUTPUT_CAP = 1000;
/** Five calls' worst case (the cap plus a short question and prompt), not six. */
const LIMIT = 5 * OUTPUT_CAP + 500;

let app: AgentsTestApp;
let alice: TestUser;
const replicas: ServerProcess[] = [];

beforeAll(async () => {
  app = await startAgentsTestApp();
  if (!app.t.databaseUrl) throw new Error('this test runs on PostgreSQL only (TEST_DB=postgres)');
  alice = await makeUser(app.t.ctx, { domain: app.domain });
  const admin = await makeUser(app.t.ctx, { domain: app.domain, role: 'Admin' });
  const made = await app.t.call('POST', '/api/v1/usage/budgets', admin, {
    scope: { kind: 'domain' },
    period: 'day',
    limit: { tokens: LIMIT },
  });
  expect(made.statusCode, made.body).toBe(201);
  // Nothing listens there: Redis is down for both replicas from the start.
  const deadRedis = `redis://127.0.0.1:${await freePort()}`;
  const replica = () =>
    startServerProcess({
      PUBLIC_URL: app.t.ctx.config.PUBLIC_URL,
      DATA_DIR: app.t.dataDir,
      DATABASE_URL: app.t.databaseUrl,
      KEY_PREFIX: app.t.ctx.keyPrefix,
      REDIS_URL: deadRedis,
      WEB_DIST: path.join(app.t.dataDir, 'no-web'),
      PROVIDER_URL_ALLOWLIST: `127.0.0.1:${app.fx.port}`,
      AGENT_MAX_CONCURRENT: String(SENDS),
      AGENT_SENDS_PER_MINUTE: String(SENDS * 2),
    });
  replicas.push(...(await Promise.all([replica(), replica()])));
}, 180_000);

afterAll(async () => {
  for (const r of replicas) r.child.kill('SIGKILL');
  await app?.close();
}, 60_000);

describe('a budget under load, on two replicas, without Redis', () => {
  it(`of ${SENDS} sends at once against a budget worth 5, at most 5 are answered; the rest are refused with BUDGET_EXCEEDED`, async () => {
    const sockets = await Promise.all(
      replicas.map((r) => TestSocket.open(r.wsUrl, { token: alice.idToken })),
    );
    for (let i = 0; i < SENDS; i++) {
      (sockets[i % 2] as TestSocket).send({
        type: 'chat.send',
        requestId: `s${i}`,
        chatId: null,
        content: `Question ${i}`,
        params: { maxTokens: OUTPUT_CAP },
      });
    }
    const outcome = async (s: TestSocket, requestId: string) =>
      Promise.race([
        s
          .next('message.created', (f) => f.requestId === requestId && f.message.role === 'assistant', 60_000)
          .then(() => 'answered' as const),
        s.next('error', (f) => f.requestId === requestId, 60_000).then((f) => f.code),
      ]);
    const results = await Promise.all(
      Array.from({ length: SENDS }, (_, i) => outcome(sockets[i % 2] as TestSocket, `s${i}`)),
    );
    const answered = results.filter((r) => r === 'answered').length;
    expect(answered).toBe(5);
    expect(results.filter((r) => r === 'BUDGET_EXCEEDED')).toHaveLength(SENDS - 5);
    // Once the answers settle, nothing stays reserved and what they used is counted.
    await expect
      .poll(
        async () => {
          const [p] = await app.t.ctx.db
            .select()
            .from(budgetPeriods)
            .where(eq(budgetPeriods.reservedTokens, 0));
          return p?.usedTokens ?? 0;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    const [period] = await app.t.ctx.db.select().from(budgetPeriods);
    expect(period?.reservedTokens).toBe(0);
    expect(period?.usedTokens).toBeLessThanOrEqual(LIMIT);
    await Promise.all(sockets.map((s) => s.close()));
  }, 120_000);
});
