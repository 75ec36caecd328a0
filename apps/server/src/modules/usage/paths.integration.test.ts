import { ApiKeyCreatedSchema, VirtualAccountWithSecretSchema } from '@assistente/contracts';
import { eq, sql } from 'drizzle-orm';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { usageDaily, usageEvents, users } from '../../db/schema/index.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { ORIGIN, useAgentsSuite } from '../../test/agents-suite.ts';
import { visitorToken } from '../../test/embedded.ts';
import type { TestUser } from '../../test/factories.ts';

// One ledger row per settled model call, whatever path made it (docs/ARCHITECTURE.md#usage-prices-and-budgets).

const { the, connect, exchange, rid } = useAgentsSuite();

const eventsOf = (userId: string) =>
  the.t.ctx.db.select().from(usageEvents).where(eq(usageEvents.userId, userId));

/** What a domain's roll-ups hold in all: what deleting things must leave unchanged. */
async function totals(domainId: string) {
  const [row] = await the.t.ctx.db
    .select({
      calls: sql<string>`sum(${usageDaily.calls})::text`,
      tokens: sql<string>`sum(${usageDaily.inputTokens} + ${usageDaily.outputTokens})::text`,
    })
    .from(usageDaily)
    .where(eq(usageDaily.domainId, domainId));
  return { calls: Number(row?.calls ?? 0), tokens: Number(row?.tokens ?? 0) };
}

async function newKey(who: TestUser) {
  const res = await the.t.app.inject({
    method: 'POST',
    url: '/api/v1/api_keys',
    headers: who.headers,
    payload: { name: 'ledger' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return ApiKeyCreatedSchema.parse(res.json());
}

describe('the ledger, path by path', () => {
  it('a chat answer writes one row: source chat, the person, their department, the model, the provider’s tokens', async () => {
    const s = await connect(the.bob);
    const r = await exchange(s, { content: 'Tell me about foxes' });
    expect(r.done.status).toBe('complete');
    await expect.poll(async () => (await eventsOf(the.bob.user.id)).length).toBe(1);
    const [row] = await eventsOf(the.bob.user.id);
    expect(row).toMatchObject({
      domainId: the.dom.domain.id,
      departmentId: the.bob.user.departmentId,
      source: 'chat',
      model: the.modelId,
      inputTokens: 4,
      outputTokens: 14,
      apiKeyId: null,
      virtualAccountId: null,
      santitoId: null,
    });

    // A regeneration is a model call of its own.
    s.send({ type: 'chat.regenerate', requestId: rid(), chatId: r.chatId, messageId: r.assistant.messageId });
    await s.next('message.done', (f) => f.messageId !== r.assistant.messageId, 10_000);
    await expect.poll(async () => (await eventsOf(the.bob.user.id)).length).toBe(2);

    // Deleting the chat leaves what it spent.
    const before = await totals(the.dom.domain.id);
    const del = await the.t.call('DELETE', `/api/v1/chats/${r.chatId}`, the.bob);
    expect(del.statusCode).toBe(204);
    // The purge (past the restore window) erases its messages; the ledger stays.
    expect(await the.t.ctx.services.chats.purgeDeleted(new Date(Date.now() + 60_000))).toBeGreaterThan(0);
    expect(await totals(the.dom.domain.id)).toEqual(before);
    expect(await eventsOf(the.bob.user.id)).toHaveLength(2);

    // So does deleting the person.
    const gone = await the.t.call('DELETE', `/api/v1/user/${encodeURIComponent(the.bob.user.id)}`, the.admin);
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await totals(the.dom.domain.id)).toEqual(before);
  });

  it('a stopped answer still writes its row, estimated from the text when the provider reported nothing', async () => {
    const who = the.alice;
    const before = (await eventsOf(who.user.id)).length;
    the.fx.setScript({ text: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), delayMs: 20 });
    const s = await connect(who);
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'A long one please' });
    const created = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await s.next('message.delta', (f) => f.messageId === created.message.messageId, 10_000);
    s.send({ type: 'chat.stop', chatId: created.chatId });
    const done = await s.next('message.done', (f) => f.messageId === created.message.messageId, 10_000);
    expect(done.status).toBe('stopped');
    await expect.poll(async () => (await eventsOf(who.user.id)).length, { timeout: 5_000 }).toBe(before + 1);
    const row = (await eventsOf(who.user.id)).at(-1);
    expect(row?.source).toBe('chat');
    expect(row?.inputTokens).toBeGreaterThan(0);
    expect(row?.outputTokens).toBeGreaterThan(0);
    expect(row?.outputTokens).toBeLessThan(400);
  });

  it('an answer through a VS Code session (an editor session) is codeassist', async () => {
    const pair = await the.t.ctx.identity.issueSession(the.admin.uid, { kind: 'editor', name: 'VS Code' });
    const s = await TestSocket.open(the.wsUrl, { origin: ORIGIN, token: pair.idToken });
    try {
      const before = (await eventsOf(the.admin.user.id)).length;
      const r = await exchange(s, { content: 'Explain this code' });
      expect(r.done.status).toBe('complete');
      await expect.poll(async () => (await eventsOf(the.admin.user.id)).length).toBe(before + 1);
      expect((await eventsOf(the.admin.user.id)).at(-1)?.source).toBe('codeassist');
    } finally {
      await s.close();
    }
  });

  it('/v1 with the official client, plain and streamed, writes api rows with the key; revoking it changes no total', async () => {
    const key = await newKey(the.admin);
    const client = new OpenAI({
      apiKey: key.secret,
      baseURL: `${the.wsUrl.replace('ws:', 'http:').replace('/api/v1/agents/chat/', '')}/v1`,
      maxRetries: 0,
    });
    await client.chat.completions.create({
      model: the.modelId,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const stream = await client.chat.completions.create({
      model: the.modelId,
      stream: true,
      messages: [{ role: 'user', content: 'Hi again' }],
    });
    for await (const _ of stream) {
      // read to the end
    }
    const byKey = () => the.t.ctx.db.select().from(usageEvents).where(eq(usageEvents.apiKeyId, key.id));
    await expect.poll(async () => (await byKey()).length).toBe(2);
    for (const row of await byKey()) {
      expect(row).toMatchObject({ source: 'api', userId: the.admin.user.id, model: the.modelId });
      expect(row.outputTokens).toBe(14);
    }
    const before = await totals(the.dom.domain.id);
    expect((await the.t.call('DELETE', `/api/v1/api_keys/${key.id}`, the.admin)).statusCode).toBe(204);
    expect(await totals(the.dom.domain.id)).toEqual(before);
    expect(await byKey()).toHaveLength(2);
  });

  it('an embed’s visitor answer is embedded, with the virtual account and the visitor’s own user row', async () => {
    const site = 'https://shop.example.com';
    const made = await the.t.app.inject({
      method: 'POST',
      url: '/api/v1/virtual_account',
      headers: the.admin.headers,
      payload: { displayName: 'Loja', allowedOrigins: [site] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const va = VirtualAccountWithSecretSchema.parse(made.json());
    const s = await TestSocket.open(the.wsUrl, {
      origin: ORIGIN,
      token: await visitorToken(the.t.app, va.virtualAccountId, site),
    });
    try {
      const r = await exchange(s, { content: 'Do you ship abroad?' });
      expect(r.done.status).toBe('complete');
      const byEmbed = () =>
        the.t.ctx.db.select().from(usageEvents).where(eq(usageEvents.virtualAccountId, va.virtualAccountId));
      await expect.poll(async () => (await byEmbed()).length).toBe(1);
      const [row] = await byEmbed();
      expect(row).toMatchObject({ source: 'embedded', domainId: the.dom.domain.id, model: the.modelId });
      const [visitor] = await the.t.ctx.db
        .select()
        .from(users)
        .where(eq(users.id, row?.userId ?? ''));
      expect(visitor?.type).toBe('visitor');
    } finally {
      await s.close();
    }
  });
});
