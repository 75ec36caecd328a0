import { getTableColumns } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, streamedContent } from '../../db/schema/index.ts';
import { type AgentsTestApp, startAgentsTestApp } from '../../test/agents-app.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';

/**
 * PostgreSQL ends the app's connections (`pg_terminate_backend`, as a failover or an operator does)
 * again and again while questions are sent and answers stream: the pool reconnects, and nothing the
 * users sent is lost, nothing stays streaming, every request is answered in time (issue 15).
 */
const ANSWER = Array.from({ length: 60 }, (_, i) => `t${i}`).join(' ');
const USERS = 8;
const ANSWERED_WITHIN_MS = 20_000;

let app: AgentsTestApp;
let users: TestUser[];
let killer: pg.Client;

beforeAll(async () => {
  app = await startAgentsTestApp({ script: { text: ANSWER, delayMs: 25 } });
  if (!app.t.databaseUrl) throw new Error('this test runs on PostgreSQL only (TEST_DB=postgres)');
  users = [];
  for (let i = 0; i < USERS; i++)
    users.push(await makeUser(app.t.ctx, { domain: app.domain, withPassword: false }));
  killer = new pg.Client({ connectionString: app.t.databaseUrl });
  await killer.connect();
}, 120_000);

afterAll(async () => {
  await killer?.end();
  await app?.close();
}, 60_000);

describe('PostgreSQL backends terminated mid-stream', () => {
  it('stores every question and every whole answer, and answers every send in time', async () => {
    const sockets = await Promise.all(users.map((u) => TestSocket.open(app.wsUrl, { token: u.idToken })));
    // Every backend of the app's database but this one, every 100 ms while the sends start and stream.
    let terminated = 0;
    let terminating = true;
    const terminator = (async () => {
      while (terminating) {
        const r = await killer.query<{ n: string }>(
          'select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        terminated += Number(r.rows[0]?.n ?? 0);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const sentAt = Date.now();
    const outcomes = await Promise.all(
      sockets.map(async (s, i) => {
        await new Promise((r) => setTimeout(r, i * 60));
        s.send({ type: 'chat.send', requestId: `r${i}`, chatId: null, content: `Question ${i}` });
        const failed = s
          .next('error', (f) => f.requestId === `r${i}`, ANSWERED_WITHIN_MS)
          .then((f) => ({
            error: `${f.code}: ${f.message}`,
          }));
        const answered = s
          .next(
            'message.created',
            (f) => f.requestId === `r${i}` && f.message.role === 'assistant',
            ANSWERED_WITHIN_MS,
          )
          .then((c) =>
            s
              .next('message.done', (f) => f.messageId === c.message.messageId, ANSWERED_WITHIN_MS)
              .then((d) => ({
                messageId: d.messageId,
                status: d.status,
              })),
          );
        return Promise.race([failed, answered]);
      }),
    );
    terminating = false;
    await terminator;
    const tookMs = Date.now() - sentAt;
    expect(terminated).toBeGreaterThan(0);

    // Every send answered, with its whole answer; none refused for the database's sake.
    expect(outcomes).toEqual(outcomes.map(() => ({ messageId: expect.any(String), status: 'complete' })));
    expect(tookMs).toBeLessThan(ANSWERED_WITHIN_MS);
    const rows = await app.t.ctx.db
      .select({ ...getTableColumns(messages), content: streamedContent })
      .from(messages);
    expect(rows.filter((r) => r.status === 'streaming')).toEqual([]);
    for (let i = 0; i < USERS; i++) {
      expect(rows.filter((r) => r.role === 'user' && r.content === `Question ${i}`)).toHaveLength(1);
    }
    for (const o of outcomes) {
      expect(rows.find((r) => 'messageId' in o && r.id === o.messageId)).toMatchObject({
        status: 'complete',
        content: ANSWER,
      });
    }
    for (const s of sockets) await s.close();
  }, 90_000);
});
