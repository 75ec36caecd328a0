import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentsTestApp, startAgentsTestApp } from '../../test/agents-app.ts';
import { TestSocket } from '../../test/agents-client.ts';
import type { TestApp } from '../../test/app.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';
import { describeWithRedis, replicaOf } from '../../test/redis.ts';

const ORIGIN = 'http://localhost:3999';

let app: AgentsTestApp;
let t: TestApp;
let wsUrl: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let dave: TestUser;

beforeAll(async () => {
  app = await startAgentsTestApp({
    script: { text: 'one two three four five six', delayMs: 60 },
    env: { AGENT_MAX_CONCURRENT: '2', AGENT_SENDS_PER_MINUTE: '4' },
  });
  ({ t, wsUrl } = app);
  [alice, bob, carol, dave] = (await Promise.all(
    [1, 2, 3, 4].map(() => makeUser(t.ctx, { domain: app.domain })),
  )) as [TestUser, TestUser, TestUser, TestUser];
}, 120_000);

afterAll(async () => {
  await app?.close();
}, 60_000);

describe('per-user limits', () => {
  it('refuses a third concurrent answer, then the fifth send of the minute; other users are not affected', async () => {
    const s = await TestSocket.open(wsUrl, { origin: ORIGIN, token: alice.idToken });
    for (const id of ['c1', 'c2', 'c3'])
      s.send({ type: 'chat.send', requestId: id, chatId: null, content: `hi ${id}` });
    // The slot is taken once a send is checked, so which of the three is refused depends on which
    // the database answers last (with PostgreSQL, not necessarily the last one sent).
    const busy = await s.next('error', (f) => ['c1', 'c2', 'c3'].includes(f.requestId ?? ''));
    expect(busy.code).toBe('TOO_MANY_GENERATIONS');
    for (const id of ['c1', 'c2', 'c3'].filter((id) => id !== busy.requestId)) {
      const answer = await s.next(
        'message.created',
        (f) => f.requestId === id && f.message.role === 'assistant',
      );
      await s.next('message.done', (f) => f.messageId === answer.message.messageId);
    }

    // The two answered and the refused one counted: one send left this minute.
    s.send({ type: 'chat.send', requestId: 'c4', chatId: null, content: 'four' });
    const fourth = await s.next(
      'message.created',
      (f) => f.requestId === 'c4' && f.message.role === 'assistant',
    );
    s.send({ type: 'chat.send', requestId: 'c5', chatId: null, content: 'five' });
    expect((await s.next('error', (f) => f.requestId === 'c5')).code).toBe('RATE_LIMITED');
    await s.next('message.done', (f) => f.messageId === fourth.message.messageId);

    const other = await TestSocket.open(wsUrl, { origin: ORIGIN, token: bob.idToken });
    other.send({ type: 'chat.send', requestId: 'b1', chatId: null, content: 'bob' });
    const bobs = await other.next(
      'message.created',
      (f) => f.requestId === 'b1' && f.message.role === 'assistant',
    );
    await other.next('message.done', (f) => f.messageId === bobs.message.messageId);
    await Promise.all([s.close(), other.close()]);
  });

  it('a refused send takes no generation slot, even while it is being checked', async () => {
    const s = await TestSocket.open(wsUrl, { origin: ORIGIN, token: carol.idToken });
    // As many sends as the limit (2) that fail their checks, arriving with a valid one.
    s.send({ type: 'chat.send', requestId: 'x1', chatId: crypto.randomUUID(), content: 'lost' });
    s.send({
      type: 'chat.send',
      requestId: 'x2',
      chatId: null,
      agentId: crypto.randomUUID(),
      content: 'no one',
    });
    s.send({ type: 'chat.send', requestId: 'ok', chatId: null, content: 'hello' });
    expect((await s.next('error', (f) => f.requestId === 'x1')).code).toBe('NOT_FOUND');
    expect((await s.next('error', (f) => f.requestId === 'x2')).code).toBe('VALIDATION_FAILED');
    const answer = await s.next(
      'message.created',
      (f) => f.requestId === 'ok' && f.message.role === 'assistant',
    );
    await s.next('message.done', (f) => f.messageId === answer.message.messageId);
    expect(s.all('error').filter((f) => f.requestId === 'ok')).toEqual([]);
    await s.close();
  });
});

// Two replicas behind a load balancer share one user's limits through Redis (CI sets REDIS_URL).
describeWithRedis('per-user limits across replicas (Redis)', () => {
  const replica = replicaOf(() => t);

  it('two replicas run no more of one user’s answers at once than AGENT_MAX_CONCURRENT', async () => {
    const here = await TestSocket.open(wsUrl, { origin: ORIGIN, token: dave.idToken });
    const there = await TestSocket.open(replica.wsUrl, { origin: ORIGIN, token: dave.idToken });
    const sent = [
      [here, 'h1'],
      [here, 'h2'],
      [there, 't1'],
      [there, 't2'],
    ] as const;
    for (const [s, id] of sent) s.send({ type: 'chat.send', requestId: id, chatId: null, content: id });
    const outcomes = await Promise.all(
      sent.map(([s, id]) =>
        Promise.race([
          s.next('error', (f) => f.requestId === id).then((f) => f.code),
          s
            .next('message.created', (f) => f.requestId === id && f.message.role === 'assistant')
            .then((f) => f.message.messageId),
        ]),
      ),
    );
    // The limit is 2: two answers ran, two sends were refused, whichever replica they reached.
    expect(outcomes.filter((o) => o === 'TOO_MANY_GENERATIONS')).toHaveLength(2);
    const answered = outcomes.filter((o) => o !== 'TOO_MANY_GENERATIONS');
    expect(answered).toHaveLength(2);
    for (const [s, id] of sent) {
      const i = sent.findIndex(([, x]) => x === id);
      if (outcomes[i] !== 'TOO_MANY_GENERATIONS')
        await s.next('message.done', (f) => f.messageId === outcomes[i]);
    }
    // Finished answers give their slots back, whichever replica ran them.
    const key = `${t.ctx.keyPrefix}agents:running:${dave.user.id}`;
    for (let i = 0; i < 50 && (await t.ctx.redis?.zcard(key)) !== 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await t.ctx.redis?.zcard(key)).toBe(0);
    await Promise.all([here.close(), there.close()]);
  });
});
