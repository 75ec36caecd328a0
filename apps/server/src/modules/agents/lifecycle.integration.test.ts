import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema/index.ts';
import { type AgentsTestApp, startAgentsTestApp } from '../../test/agents-app.ts';
import { TestSocket } from '../../test/agents-client.ts';
import type { TestApp } from '../../test/app.ts';
import { makeChat, makeUser, type TestUser } from '../../test/factories.ts';
import { INTERRUPTED_MESSAGE } from './model-calls.ts';

let app: AgentsTestApp;
let t: TestApp;
let alice: TestUser;

beforeAll(async () => {
  app = await startAgentsTestApp({
    script: { text: 'one two three four five six seven eight nine ten', delayMs: 100 },
  });
  ({ t } = app);
  alice = await makeUser(t.ctx, { domain: app.domain });
}, 120_000);

afterAll(async () => {
  await app?.close();
}, 60_000);

describe('answers never stay "streaming"', () => {
  it('the stale sweep ends an answer whose process died, keeping its text', async () => {
    const { chat } = await makeChat(t.ctx, alice, { messages: ['Question'] });
    const [row] = await t.ctx.db
      .insert(messages)
      .values({
        id: crypto.randomUUID(),
        chatId: chat.id,
        role: 'assistant',
        content: 'Half an ans',
        status: 'streaming',
        updatedAt: new Date(Date.now() - 10 * 60_000),
      })
      .returning();
    const fresh = await t.ctx.db
      .insert(messages)
      .values({
        id: crypto.randomUUID(),
        chatId: chat.id,
        role: 'assistant',
        content: 'Live',
        status: 'streaming',
      })
      .returning();
    const swept = await t.ctx.services.chats.sweepStaleAnswers(
      new Date(Date.now() - 2 * 60_000),
      INTERRUPTED_MESSAGE,
    );
    expect(swept).toEqual([
      { messageId: row?.id, chatId: chat.id, userId: alice.user.id, content: 'Half an ans' },
    ]);
    const [after] = await t.ctx.db
      .select()
      .from(messages)
      .where(eq(messages.id, row?.id ?? ''));
    expect(after).toMatchObject({ status: 'error', content: 'Half an ans', error: INTERRUPTED_MESSAGE });
    const [live] = await t.ctx.db
      .select()
      .from(messages)
      .where(eq(messages.id, fresh[0]?.id ?? ''));
    expect(live?.status).toBe('streaming');
  });

  it('shutting the server down stores the answers in progress as interrupted, partial text kept', async () => {
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/agents/chat/`;
    const s = await TestSocket.open(url, { token: alice.idToken });
    s.send({ type: 'chat.send', requestId: 'x', chatId: null, content: 'Long answer please' });
    const a = await s.next('message.created', (f) => f.requestId === 'x' && f.message.role === 'assistant');
    await s.next(
      'message.delta',
      (f) => f.messageId === a.message.messageId && s.textOf(f.messageId).length > 8,
    );
    await t.app.close();
    expect((await s.closed).code).toBe(1001);
    const [row] = await t.ctx.db.select().from(messages).where(eq(messages.id, a.message.messageId));
    expect(row?.status).toBe('error');
    expect(row?.error).toBe(INTERRUPTED_MESSAGE);
    expect(row?.content.length).toBeGreaterThan(8);
    expect('one two three four five six seven eight nine ten'.startsWith(row?.content ?? '!')).toBe(true);
  });
});
