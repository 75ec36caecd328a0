import {
  ApiKeyCreatedSchema,
  MemoryListSchema,
  type MessagePart,
  MessageSchema,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memories } from '../../db/schema/index.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { ORIGIN, useAgentsSuite } from '../../test/agents-suite.ts';
import { visitorToken } from '../../test/embedded.ts';
import type { TestUser } from '../../test/factories.ts';
import { MEMORY_HEADING } from './answers.ts';

// Memories in answers (docs/ARCHITECTURE.md#memory): a person's own, newest first within 1,000
// tokens, in their own chats only; the `remember` tool saving for the chat's owner; the answer
// saying it used them. What reached the model is read from the fixture's recorded requests.

const { the, connect, exchange, messageRow, rid } = useAgentsSuite();

type Body = {
  messages?: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
};

const requests = () => the.fx.chatRequests().map((r) => r.body as Body);
const systemOf = (b: Body | undefined) =>
  (b?.messages ?? [])
    .filter((m) => m.role === 'system')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
const toolNames = (b: Body | undefined) => (b?.tools ?? []).map((t) => t.function.name).sort();

async function turn(enabled: boolean) {
  const res = await the.t.call('PUT', '/api/v1/settings/memory', the.admin, { enabled });
  expect(res.statusCode, res.body).toBe(200);
}

async function remember(who: TestUser, text: string) {
  const res = await the.t.call('POST', '/api/v1/me/memories', who, { text });
  expect(res.statusCode, res.body).toBe(201);
}

const listOf = async (who: TestUser) =>
  MemoryListSchema.parse((await the.t.call('GET', '/api/v1/me/memories', who)).json());

async function forget(who: TestUser) {
  await the.t.ctx.db.delete(memories).where(eq(memories.userId, who.user.id));
}

async function setRules(rules: Array<{ match: string; decision: 'allow' | 'ask' | 'deny' }>) {
  const res = await the.t.call('PUT', '/api/v1/settings/tools', the.admin, { rules, userServers: false });
  expect(res.statusCode, res.body).toBe(200);
}

const toolParts = (parts: MessagePart[] | null | undefined) =>
  (parts ?? []).filter((p): p is Extract<MessagePart, { type: 'tool' }> => p.type === 'tool');

describe('memories in answers', () => {
  it('a person’s memories reach only their own model requests, never another person’s', async () => {
    await turn(true);
    await remember(the.alice, 'ALICE prefers short bullet points');
    await remember(the.alice, 'ALICE works in the sales team');
    await remember(the.bob, 'BOB writes in Portuguese');

    const a = await exchange(await connect(the.alice), { content: 'How do I write a report?' });
    expect(a.done.status).toBe('complete');
    const aliceSystem = systemOf(requests().at(-1));
    expect(aliceSystem).toContain(MEMORY_HEADING);
    // Newest first.
    expect(aliceSystem).toContain('- ALICE works in the sales team\n- ALICE prefers short bullet points');
    expect(aliceSystem).not.toContain('BOB');
    expect(a.done.usedMemory).toBe(true);

    the.fx.reset();
    const b = await exchange(await connect(the.bob), { content: 'How do I write a report?' });
    expect(b.done.usedMemory).toBe(true);
    const bobSystem = systemOf(requests().at(-1));
    expect(bobSystem).toContain('- BOB writes in Portuguese');
    expect(JSON.stringify(requests())).not.toContain('ALICE');

    // Another domain's person, with memory on there too, gets none of this domain's.
    const other = await the.t.call('PUT', '/api/v1/settings/memory', the.outsider, { enabled: true });
    expect(other.statusCode).toBe(200);
    the.fx.reset();
    const o = await exchange(await connect(the.outsider), { content: 'How do I write a report?' });
    expect(o.done.usedMemory).toBeUndefined();
    expect(JSON.stringify(requests())).not.toMatch(/ALICE|BOB/);
    expect(systemOf(requests().at(-1))).not.toContain(MEMORY_HEADING);
  });

  it('the answer says it used them: in message.done, stored, and in the messages API', async () => {
    await turn(true);
    await forget(the.alice);
    await remember(the.alice, 'Prefers answers in English');
    const r = await exchange(await connect(the.alice), { content: 'Hello' });
    expect(r.done).toMatchObject({ status: 'complete', usedMemory: true });
    expect((await messageRow(r.assistant.messageId))?.usedMemory).toBe(true);
    const res = await the.t.call('GET', `/api/v1/chats/${r.chatId}/messages`, the.alice);
    expect(res.statusCode, res.body).toBe(200);
    const stored = z.array(MessageSchema).parse(res.json());
    expect(stored.find((m) => m.messageId === r.assistant.messageId)?.usedMemory).toBe(true);
    expect(stored.find((m) => m.messageId === r.user.messageId)?.usedMemory).toBeUndefined();

    // Without memories, nothing is said.
    await forget(the.alice);
    const none = await exchange(await connect(the.alice), { content: 'Hello again' });
    expect(none.done.usedMemory).toBeUndefined();
    expect((await messageRow(none.assistant.messageId))?.usedMemory).toBe(false);
    expect(systemOf(requests().at(-1))).not.toContain(MEMORY_HEADING);
  });

  it('gives only the newest that fit in 1,000 tokens, as many as the list says', async () => {
    await turn(true);
    const who = the.bob;
    await forget(who);
    const now = Date.now();
    const fact = (i: number) =>
      `Memory number ${i}: the person likes detailed examples about topic ${i} with several words each.`;
    await the.t.ctx.db.insert(memories).values(
      Array.from({ length: 150 }, (_, i) => ({
        id: `tok-${i}`,
        userId: who.user.id,
        domainId: the.dom.domain.id,
        text: fact(i),
        source: 'user' as const,
        createdAt: new Date(now + i * 1000),
        updatedAt: new Date(now + i * 1000),
      })),
    );
    const list = await listOf(who);
    expect(list.memories).toHaveLength(150);
    expect(list.injected).toBeGreaterThan(10);
    expect(list.injected).toBeLessThan(150);

    the.fx.reset();
    const r = await exchange(await connect(who), { content: 'Hi' });
    expect(r.done.usedMemory).toBe(true);
    const system = systemOf(requests().at(-1));
    const given = system.split('\n').filter((l) => l.startsWith('- Memory number'));
    expect(given).toHaveLength(list.injected);
    // The newest (149, 148, …), in that order; the oldest never.
    expect(given[0]).toBe(`- ${fact(149)}`);
    expect(given.at(-1)).toBe(`- ${fact(150 - list.injected)}`);
    expect(system).not.toContain(fact(149 - list.injected));
    const { estimateTokens } = await import('../usage/index.ts');
    expect(await estimateTokens(given.join('\n'))).toBeLessThanOrEqual(1_000);
    await forget(who);
  });

  it('the model’s remember tool saves for the chat’s owner, without asking', async () => {
    await turn(true);
    await setRules([]);
    await forget(the.alice);
    await forget(the.bob);
    the.fx.enqueue(
      {
        text: '',
        toolCalls: [{ name: 'remember', arguments: JSON.stringify({ text: 'Prefers short bullet points' }) }],
      },
      { text: 'Noted: short bullet points from now on.' },
    );
    const s = await connect(the.alice);
    const r = await exchange(s, { content: 'Remember that I prefer short bullet points' });
    expect(r.done.status).toBe('complete');
    // Offered although no santito gave it; no other tool is there.
    expect(toolNames(requests()[0])).toEqual(['remember']);
    const call = s.all('tool.call').find((f) => f.messageId === r.assistant.messageId);
    expect(call).toMatchObject({ tool: 'builtin:remember', needsApproval: false });
    const row = await messageRow(r.assistant.messageId);
    const [step] = toolParts(row?.parts);
    expect(step).toMatchObject({ tool: 'builtin:remember', status: 'done' });
    expect(step?.output).toContain('Prefers short bullet points');

    const mine = await listOf(the.alice);
    expect(mine.memories).toEqual([
      expect.objectContaining({ text: 'Prefers short bullet points', source: 'assistant' }),
    ]);
    expect((await listOf(the.bob)).memories).toEqual([]);

    // A santito with no tools at all still offers it, and its next chats are given the memory.
    const made = await the.t.call('POST', '/api/v1/agent', the.admin, { name: `Plain ${rid()}`, tools: [] });
    expect(made.statusCode, made.body).toBe(201);
    the.fx.reset();
    const next = await exchange(await connect(the.alice), {
      agentId: (made.json() as { _id: string })._id,
      content: 'Summarise the week',
    });
    expect(next.done.usedMemory).toBe(true);
    expect(toolNames(requests()[0])).toEqual(['remember']);
    expect(systemOf(requests()[0])).toContain('- Prefers short bullet points');
  });

  it('an Admin’s deny rule on builtin:remember wins: not offered, memories still given', async () => {
    await turn(true);
    await forget(the.alice);
    await remember(the.alice, 'Likes tables');
    await setRules([{ match: 'builtin:remember', decision: 'deny' }]);
    try {
      const r = await exchange(await connect(the.alice), { content: 'Hi' });
      expect(toolNames(requests().at(-1))).toEqual([]);
      expect(systemOf(requests().at(-1))).toContain('- Likes tables');
      expect(r.done.usedMemory).toBe(true);
      // A model that calls it anyway is refused, and nothing is saved.
      the.fx.reset();
      the.fx.enqueue(
        { text: '', toolCalls: [{ name: 'remember', arguments: JSON.stringify({ text: 'Sneaky' }) }] },
        { text: 'ok' },
      );
      await exchange(await connect(the.alice), { content: 'Remember this' });
      expect((await listOf(the.alice)).memories.map((m) => m.text)).toEqual(['Likes tables']);
    } finally {
      await setRules([]);
    }
  });

  it('with memory off: nothing given, no tool, nothing saved', async () => {
    await turn(true);
    await forget(the.alice);
    await remember(the.alice, 'OFF-CHECK likes cats');
    await turn(false);
    try {
      the.fx.enqueue(
        { text: '', toolCalls: [{ name: 'remember', arguments: JSON.stringify({ text: 'Nope' }) }] },
        { text: 'ok' },
      );
      const r = await exchange(await connect(the.alice), { content: 'Remember that I like dogs' });
      expect(r.done.usedMemory).toBeUndefined();
      const first = requests()[0];
      expect(toolNames(first)).toEqual([]);
      expect(JSON.stringify(requests())).not.toContain('OFF-CHECK');
      const list = await listOf(the.alice);
      expect(list).toMatchObject({ enabled: false, injected: 0 });
      expect(list.memories.map((m) => m.text)).toEqual(['OFF-CHECK likes cats']);
      const post = await the.t.call('POST', '/api/v1/me/memories', the.alice, { text: 'x' });
      expect(post.statusCode).toBe(403);
    } finally {
      await turn(true);
    }
  });

  it('an embed’s visitor and an API key never get memories nor the tool', async () => {
    await turn(true);
    await forget(the.admin);
    await remember(the.admin, 'ADMIN-ONLY fact');
    const site = 'https://shop.example.com';
    const made = await the.t.call('POST', '/api/v1/virtual_account', the.admin, {
      displayName: 'Loja',
      allowedOrigins: [site],
    });
    expect(made.statusCode, made.body).toBe(201);
    const va = VirtualAccountWithSecretSchema.parse(made.json());
    const token = await visitorToken(the.t.app, va.virtualAccountId, site);
    expect(
      (await the.t.call('GET', '/api/v1/me/memories', { headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(401);
    const s = await TestSocket.open(the.wsUrl, { origin: ORIGIN, token });
    try {
      const r = await exchange(s, { content: 'Do you ship abroad?' });
      expect(r.done.status).toBe('complete');
      expect(r.done.usedMemory).toBeUndefined();
      expect(toolNames(requests().at(-1))).toEqual([]);
      expect(systemOf(requests().at(-1))).not.toContain(MEMORY_HEADING);
    } finally {
      await s.close();
    }

    const key = await the.t.call('POST', '/api/v1/api_keys', the.admin, { name: 'memória' });
    expect(key.statusCode, key.body).toBe(201);
    the.fx.reset();
    const base = the.wsUrl.replace('ws:', 'http:').replace('/api/v1/agents/chat/', '');
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ApiKeyCreatedSchema.parse(key.json()).secret}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: the.modelId, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(requests())).not.toContain('ADMIN-ONLY');
    expect(toolNames(requests().at(-1))).toEqual([]);
  });
});
