import type { AddressInfo } from 'node:net';
import { type VirtualAccountWithSecret, VirtualAccountWithSecretSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema/chats.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { visitorToken } from '../../test/embedded.ts';
import { makeDomain, makeUser, type TestUser } from '../../test/factories.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';

// An embed paused or deleted mid-answer (docs/ARCHITECTURE.md#embedded-chat): its visitors' sockets close, and the answers
// already running stop too, rather than spending the organisation's tokens for nobody. Real
// PGlite/PostgreSQL, a real websocket, and the OpenAI-compatible fixture streaming slowly.

const SITE = 'https://shop.example.com';
const APP_ORIGIN = 'http://localhost:3999';
/** 400 words at 50 ms each: 20 s of answer, far longer than any stop may take. */
const LONG = Array.from({ length: 400 }, (_, i) => `palavra${i}`).join(' ');
const STOP_WITHIN_MS = 3_000;

let fx: LlmFixture;
let t: TestApp;
let wsUrl: string;
let admin: TestUser;

beforeAll(async () => {
  fx = await startLlmFixture({ script: { text: LONG, delayMs: 50 } });
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}` });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/agents/chat/`;
  const domain = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain, role: 'Admin' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/settings/providers',
    headers: admin.headers,
    payload: { kind: 'openai-compatible', label: 'Fixture', baseUrl: fx.baseUrl, models: ['fixture-small'] },
  });
  expect(res.statusCode, res.body).toBe(201);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
}, 60_000);

async function makeEmbed(): Promise<VirtualAccountWithSecret> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/virtual_account',
    headers: admin.headers,
    payload: { displayName: 'Loja', allowedOrigins: [SITE] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return VirtualAccountWithSecretSchema.parse(res.json());
}

/** A new visitor of the embed, with an answer streaming (its first words already arrived). */
async function visitorMidAnswer(virtualAccountId: string) {
  const idToken = await visitorToken(t.app, virtualAccountId, SITE);
  const ws = await TestSocket.open(wsUrl, { origin: APP_ORIGIN, token: idToken });
  ws.send({ type: 'chat.send', requestId: 'r1', chatId: null, content: 'Conte tudo' });
  const created = await ws.next(
    'message.created',
    (f) => f.requestId === 'r1' && f.message.role === 'assistant',
  );
  await ws.next('message.delta', (f) => f.messageId === created.message.messageId);
  return { ws, chatId: created.chatId, messageId: created.message.messageId };
}

async function stored(messageId: string) {
  const [row] = await t.ctx.db
    .select({ status: messages.status, content: messages.content })
    .from(messages)
    .where(eq(messages.id, messageId));
  return row;
}

describe('an embed paused or deleted mid-answer', () => {
  // An answer stopped by the test before ends its provider stream a moment after `message.done`.
  beforeEach(async () => {
    await expect.poll(() => fx.activeStreams(), { timeout: STOP_WITHIN_MS }).toBe(0);
  });

  it('pausing stops its visitors’ running answers, kept as stopped; another embed’s answer goes on', async () => {
    const paused = await makeEmbed();
    const other = await makeEmbed();
    const a = await visitorMidAnswer(paused.virtualAccountId);
    const b = await visitorMidAnswer(other.virtualAccountId);
    try {
      expect(fx.activeStreams()).toBe(2);
      const at = Date.now();
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/virtual_account/${paused.virtualAccountId}`,
        headers: admin.headers,
        payload: { active: false },
      });
      expect(res.statusCode, res.body).toBe(200);

      await expect
        .poll(async () => (await stored(a.messageId))?.status, { timeout: STOP_WITHIN_MS })
        .toBe('stopped');
      // The provider's stream is cut too: no more tokens are spent on it.
      await expect.poll(() => fx.activeStreams(), { timeout: STOP_WITHIN_MS }).toBe(1);
      expect(Date.now() - at).toBeLessThan(STOP_WITHIN_MS);
      const kept = await stored(a.messageId);
      expect(kept?.content).toContain('palavra0');
      expect(kept?.content).not.toContain('palavra399');
      expect((await a.ws.closed).code).toBe(4401);

      // The other embed's visitor is still being answered.
      expect((await stored(b.messageId))?.status).toBe('streaming');
      b.ws.send({ type: 'chat.stop', chatId: b.chatId });
      expect((await b.ws.next('message.done', (f) => f.messageId === b.messageId)).status).toBe('stopped');
    } finally {
      await a.ws.close();
      await b.ws.close();
    }
  });

  it('a change that keeps the embed on (a new name) leaves its answers running', async () => {
    const va = await makeEmbed();
    const a = await visitorMidAnswer(va.virtualAccountId);
    try {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/virtual_account/${va.virtualAccountId}`,
        headers: admin.headers,
        payload: { displayName: 'Loja nova' },
      });
      expect(res.statusCode, res.body).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await stored(a.messageId))?.status).toBe('streaming');
      expect(fx.activeStreams()).toBe(1);
      a.ws.send({ type: 'chat.stop', chatId: a.chatId });
      expect((await a.ws.next('message.done', (f) => f.messageId === a.messageId)).status).toBe('stopped');
    } finally {
      await a.ws.close();
    }
  });

  it('deleting stops them too', async () => {
    const va = await makeEmbed();
    const a = await visitorMidAnswer(va.virtualAccountId);
    try {
      expect(fx.activeStreams()).toBe(1);
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/virtual_account/${va.virtualAccountId}`,
        headers: admin.headers,
      });
      expect(res.statusCode, res.body).toBe(204);
      await expect.poll(() => fx.activeStreams(), { timeout: STOP_WITHIN_MS }).toBe(0);
      // Its visitors' chats went with it: nothing of the answer is left behind.
      await expect.poll(async () => stored(a.messageId), { timeout: STOP_WITHIN_MS }).toBeUndefined();
    } finally {
      await a.ws.close();
    }
  });
});
