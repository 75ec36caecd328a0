import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestUser } from '../../test/factories.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { TestSocket } from './test-client.ts';

const ORIGIN = 'http://localhost:3999';

let t: TestApp;
let fx: LlmFixture;
let wsUrl: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  fx = await startLlmFixture({ script: { text: 'one two three four five six', delayMs: 60 } });
  t = await buildTestApp({
    PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}`,
    AGENT_MAX_CONCURRENT: '2',
    AGENT_SENDS_PER_MINUTE: '4',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/agents/chat/`;
  const d = await makeDomain(t.ctx);
  const admin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
  alice = await makeUser(t.ctx, { domain: d });
  bob = await makeUser(t.ctx, { domain: d });
  carol = await makeUser(t.ctx, { domain: d });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/settings/providers',
    headers: admin.headers,
    payload: { kind: 'openai-compatible', label: 'Fixture', baseUrl: fx.baseUrl, models: ['fixture-small'] },
  });
  expect(res.statusCode).toBe(201);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
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
