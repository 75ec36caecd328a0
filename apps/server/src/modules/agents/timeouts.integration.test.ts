import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, users } from '../../db/schema/index.ts';
import { type AgentsTestApp, startAgentsTestApp } from '../../test/agents-app.ts';
import { TestSocket } from '../../test/agents-client.ts';
import type { TestApp } from '../../test/app.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';
import type { LlmFixture } from '../../test/llm-fixture.ts';

/** A provider that hangs, and an owner who loses access, do not keep an answer (and its slot) running. */
const ORIGIN = 'http://localhost:3999';
let app: AgentsTestApp;
let t: TestApp;
let fx: LlmFixture;
let wsUrl: string;
let ana: TestUser;
let bia: TestUser;

beforeAll(async () => {
  app = await startAgentsTestApp({
    script: { text: 'ok' },
    // Short enough for a quick test, long enough that a busy CI machine's scheduling is not a
    // silent provider (400 ms once timed out the third, healthy call on two loaded cores).
    env: {
      PROVIDER_FIRST_BYTE_TIMEOUT_MS: '1000',
      PROVIDER_IDLE_TIMEOUT_MS: '1000',
      AGENT_MAX_CONCURRENT: '1',
    },
  });
  ({ t, fx, wsUrl } = app);
  ana = await makeUser(t.ctx, { domain: app.domain });
  bia = await makeUser(t.ctx, { domain: app.domain });
}, 120_000);

afterAll(async () => {
  await app?.close();
}, 60_000);

async function ask(s: TestSocket, requestId: string) {
  s.send({ type: 'chat.send', requestId, chatId: null, content: requestId });
  const created = await s.next(
    'message.created',
    (f) => f.requestId === requestId && f.message.role === 'assistant',
  );
  return created.message.messageId;
}

const stored = async (id: string) => (await t.ctx.db.select().from(messages).where(eq(messages.id, id)))[0];

describe('a hung provider', () => {
  it('ends the answer as a translated timeout error within its deadline and frees the slot', async () => {
    const s = await TestSocket.open(wsUrl, { origin: ORIGIN, token: ana.idToken });
    fx.setScript({ text: 'never', firstDelayMs: 60_000 });
    const hung = await ask(s, 'hung');
    const done = await s.next('message.done', (f) => f.messageId === hung);
    expect(done).toMatchObject({
      status: 'error',
      finishReason: 'error',
      error: { code: 'PROVIDER_TIMEOUT' },
    });
    expect(await stored(hung)).toMatchObject({
      status: 'error',
      errorCode: 'PROVIDER_TIMEOUT',
      error: 'The AI provider did not start answering within 1 s.',
    });
    // A reload reads the code too, so the web says it in the reader's language.
    const chatId = (await stored(hung))?.chatId ?? '';
    const page = await t.app.inject({ url: `/api/v1/chats/${chatId}/messages`, headers: ana.headers });
    expect(page.json().find((m: { messageId: string }) => m.messageId === hung)).toMatchObject({
      status: 'error',
      errorCode: 'PROVIDER_TIMEOUT',
    });

    fx.setScript({ text: 'first then silence', delayMs: 60_000 });
    const stalled = await ask(s, 'stalled');
    const stalledDone = await s.next('message.done', (f) => f.messageId === stalled);
    expect(stalledDone.error?.code).toBe('PROVIDER_TIMEOUT');
    expect(await stored(stalled)).toMatchObject({
      status: 'error',
      content: 'first ',
      error: 'The AI provider stopped sending for 1 s.',
    });

    // AGENT_MAX_CONCURRENT is 1: the slot came back.
    fx.setScript({ text: 'fine' });
    const next = await ask(s, 'next');
    await s.next('message.done', (f) => f.messageId === next);
    expect(await stored(next)).toMatchObject({ status: 'complete', content: 'fine' });
    await s.close();
  });
});

describe('an owner who loses access mid-answer', () => {
  it('stops the answer at once, so it spends no more tokens', async () => {
    const s = await TestSocket.open(wsUrl, { origin: ORIGIN, token: bia.idToken });
    fx.setScript({ text: 'a b c d e f g h i j k l m n o p q r s t', delayMs: 200 });
    const id = await ask(s, 'long');
    await s.next('message.delta', (f) => f.messageId === id);
    await t.ctx.db.update(users).set({ active: false }).where(eq(users.id, bia.user.id));
    await t.ctx.services.callerStates.invalidate({ email: bia.user.id });
    await expect.poll(async () => (await stored(id))?.status, { timeout: 5_000 }).toBe('stopped');
    expect((await stored(id))?.content.length).toBeLessThan('a b c d e f g h i j k l m n o p q r s t'.length);
  });
});
