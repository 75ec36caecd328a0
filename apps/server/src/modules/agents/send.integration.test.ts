import type { Message } from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { chats, messages, santitos } from '../../db/schema/index.ts';
import { ANSWER, DOCX, useAgentsSuite } from '../../test/agents-suite.ts';
import { TINY_PNG } from '../../test/chats.ts';
import { makeSantito } from '../../test/factories.ts';
import { makeDocx, makePdf } from '../../test/knowledge/documents.ts';
import { MAX_INLINE_CHARS } from './prompt.ts';

const { the, connect, rid, messageRow, exchange, chatRow, chatsOf, restChat, attachAll } = useAgentsSuite();

describe('chat.send', () => {
  it('creates a chat, commits the user message first, streams the answer and stores it with usage', async () => {
    const s = await connect(the.alice);
    const r = await exchange(s, { content: 'Tell me about foxes' });
    const created = s.all('chat.created').find((f) => f.requestId === r.requestId);
    expect(created?.chat.chatId).toBe(r.chatId);

    // Order: chat.created → message.created (user) → message.created (assistant) → deltas → done.
    const types = s.frames.map((f) => f.type);
    expect(types.indexOf('chat.created')).toBeLessThan(types.indexOf('message.created'));
    expect(r.user).toMatchObject({
      role: 'user',
      content: 'Tell me about foxes',
      status: 'complete',
      parentId: null,
    });
    expect(r.assistant).toMatchObject({
      role: 'assistant',
      status: 'streaming',
      parentId: r.user.messageId,
      content: '',
    });
    expect(r.assistant.model).toBe(the.modelId);
    expect(s.textOf(r.assistant.messageId)).toBe(ANSWER);
    expect(r.done).toMatchObject({ status: 'complete', finishReason: 'stop' });
    expect(r.done.usage).toEqual({ inputTokens: 4, outputTokens: 14, totalTokens: 18 });

    const stored = await messageRow(r.assistant.messageId);
    expect(stored).toMatchObject({ status: 'complete', content: ANSWER, model: the.modelId });
    expect(stored?.usage).toEqual({ inputTokens: 4, outputTokens: 14, totalTokens: 18 });
    expect((await messageRow(r.user.messageId))?.status).toBe('complete');

    // The new chat is stored with its first message, titled from it.
    expect(created?.chat.title).toBe('Tell me about foxes');
    expect((await chatRow(r.chatId))?.title).toBe('Tell me about foxes');
  });

  it('an untitled chat takes its title from the first message sent to it, announced before the message', async () => {
    const s = await connect(the.alice);
    const chat = await restChat(the.alice);
    expect(chat.title).toBe('');
    const r = await exchange(s, { chatId: chat.chatId, content: 'Como cuidar de samambaias?' });
    const updated = s.all('chat.updated').find((f) => f.chat.chatId === chat.chatId);
    expect(updated?.chat.title).toBe('Como cuidar de samambaias?');
    const types = s.frames.map((f) => f.type);
    expect(types.indexOf('chat.updated')).toBeLessThan(types.indexOf('message.created'));
    expect((await chatRow(chat.chatId))?.title).toBe('Como cuidar de samambaias?');

    // A titled chat keeps its title.
    await exchange(s, { chatId: chat.chatId, content: 'E de orquídeas?', parentId: r.assistant.messageId });
    expect((await chatRow(chat.chatId))?.title).toBe('Como cuidar de samambaias?');
  });

  it('a first message refused leaves no chat behind', async () => {
    const s = await connect(the.alice);
    const before = (await chatsOf(the.alice)).length;
    for (const [i, bad] of [
      { content: '   ' },
      { content: 'ok', parentId: crypto.randomUUID() },
      { content: 'ok', attachments: [crypto.randomUUID()] },
    ].entries()) {
      const requestId = `refused-${i}`;
      s.send({ type: 'chat.send', requestId, chatId: null, ...bad });
      expect((await s.next('error', (f) => f.requestId === requestId)).code).toBe('VALIDATION_FAILED');
    }
    expect(await chatsOf(the.alice)).toHaveLength(before);
    expect(s.all('chat.created')).toHaveLength(0);
  });

  it('the user message is in the database when message.created arrives', async () => {
    const s = await connect(the.alice);
    the.fx.setScript({ text: ANSWER, firstDelayMs: 300 });
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'Committed first?' });
    const user = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'user',
    );
    expect((await messageRow(user.message.messageId))?.content).toBe('Committed first?');
    const assistant = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    expect((await messageRow(assistant.message.messageId))?.status).toBe('streaming');
    await s.next('message.done', (f) => f.messageId === assistant.message.messageId);
  });

  it('continues a chat made through REST, with the branch as context and params saved on the chat', async () => {
    const chat = await restChat(the.alice, { title: 'Existing' });
    const s = await connect(the.alice);
    const first = await exchange(s, { chatId: chat.chatId, content: 'First question' });
    the.fx.reset();
    const params = { temperature: 0.2, maxTokens: 50, instructions: 'Answer in French.' };
    const second = await exchange(s, { chatId: chat.chatId, content: 'Second question', params });
    expect(second.user.parentId).toBe(first.assistant.messageId);
    const body = the.fx.chatRequests()[0]?.body as {
      messages: Array<{ role: string; content: unknown }>;
      temperature: number;
      max_tokens: number;
    };
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(50);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: ANSWER },
      { role: 'user', content: 'Second question' },
    ]);
    const [row] = await the.t.ctx.db.select().from(chats).where(eq(chats.id, chat.chatId));
    expect(row?.params).toEqual(params);
    expect(row?.title).toBe('Existing');
  });

  it("puts the santito's instructions before the chat's in the system prompt", async () => {
    const santito = await makeSantito(the.t.ctx, the.admin);
    await the.t.ctx.db
      .update(santitos)
      .set({ instructions: 'You are Santito, a helpful fox.' })
      .where(eq(santitos.id, santito.id));
    const s = await connect(the.alice);
    const r = await exchange(s, {
      agentId: santito.id,
      content: 'Who are you?',
      params: { instructions: 'Be brief.' },
    });
    expect(s.all('chat.created').find((f) => f.chat.chatId === r.chatId)?.chat.agentId).toBe(santito.id);
    const body = the.fx.chatRequests()[0]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: 'You are Santito, a helpful fox.\n\nBe brief.',
    });
  });

  it("answers with the domain's default model once a santito's own model is gone", async () => {
    const santito = await makeSantito(the.t.ctx, the.admin);
    await the.t.ctx.db
      .update(santitos)
      .set({ model: 'p0removed0000:old' })
      .where(eq(santitos.id, santito.id));
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId: santito.id, content: 'Still there?' });
    expect(r.done.status).toBe('complete');
    const model = (the.fx.chatRequests()[0]?.body as { model?: unknown } | undefined)?.model;
    expect(model).toEqual(expect.any(String));
    expect(model).not.toBe('old');
  });

  it('passes images as image parts and inlines text files', async () => {
    const chat = await restChat(the.alice);
    const ids = await attachAll(chat.chatId, [
      ['dot.png', 'image/png', TINY_PNG],
      ['notes.txt', 'text/plain', Buffer.from('The secret word is pineapple.')],
    ]);
    const s = await connect(the.alice);
    const r = await exchange(s, { chatId: chat.chatId, content: 'Look at these', attachments: ids });
    expect(r.user.attachments?.map((a) => a.name)).toEqual(['dot.png', 'notes.txt']);
    const body = the.fx.chatRequests()[0]?.body as {
      messages: Array<{
        role: string;
        content: Array<{ type: string; text?: string; image_url?: { url: string } }>;
      }>;
    };
    const parts = body.messages.at(-1)?.content ?? [];
    expect(parts[0]).toEqual({ type: 'text', text: 'Look at these' });
    expect(parts[1]?.type).toBe('image_url');
    expect(parts[1]?.image_url?.url).toBe(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
    expect(parts[2]?.text).toContain('The secret word is pineapple.');
  });

  it('gives an OpenAI-compatible model the text of attached PDF and DOCX files, cut at the cap with a note', async () => {
    const chat = await restChat(the.alice);
    const long = `${'w'.repeat(MAX_INLINE_CHARS)}TAIL-NOT-SENT`;
    const ids = await attachAll(chat.chatId, [
      ['refunds.pdf', 'application/pdf', makePdf(['Refunds are paid within seven days.'])],
      ['travel.docx', DOCX, makeDocx('Travel', ['Book flights through the travel portal.'])],
      ['long.docx', DOCX, makeDocx('Long', [long], { deflate: true })],
      ['bomb.docx', DOCX, makeDocx('Bomb', ['x'], { deflate: true, padding: 40 * 1024 * 1024 })],
    ]);
    const s = await connect(the.alice);
    const r = await exchange(s, { chatId: chat.chatId, content: 'Read these', attachments: ids });
    const body = the.fx.chatRequests()[0]?.body as {
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    };
    const parts = body.messages.at(-1)?.content ?? [];
    expect(parts.map((p) => p.type)).toEqual(['text', 'text', 'text', 'text', 'text']);
    expect(parts[1]?.text).toContain('Refunds are paid within seven days.');
    expect(parts[2]?.text).toContain('Book flights through the travel portal.');
    expect(parts[3]?.text).toMatch(
      /\[… cut: only the first 200,000 of 200,\d{3} characters of this file were given to you\]$/,
    );
    expect(parts[3]?.text).not.toContain('TAIL-NOT-SENT');
    expect(parts[4]?.text).toContain('cannot read: The DOCX unpacks to more than 32 MB');
    const readings = [
      { attachmentId: ids[2], name: 'long.docx', reading: 'partial' },
      { attachmentId: ids[3], name: 'bomb.docx', reading: 'unread' },
    ];
    // The person is told too: with the answer's end, and on the stored answer.
    expect(r.done.attachmentReadings).toEqual(readings);
    const res = await the.t.app.inject({
      url: `/api/v1/chats/${r.chatId}/messages`,
      headers: the.alice.headers,
    });
    const stored = (res.json() as Message[]).find((m) => m.messageId === r.done.messageId);
    expect(stored?.attachmentReadings).toEqual(readings);
  });

  it('an answer whose set-up fails once its slot is held ends stored with why, and frees the slot', async () => {
    const s = await connect(the.alice);
    // The person's memories are read beside the tools and the ledger, after the slot is taken and
    // while the question and its answer's row are being stored.
    const failing = vi
      .spyOn(the.t.ctx.services.memory, 'forAnswer')
      .mockRejectedValue(new Error('memories unreadable'));
    try {
      // More failures than the person may have answers at once (AGENT_MAX_CONCURRENT is 50): a slot
      // held by any of them would refuse the last.
      for (let i = 0; i < 51; i++) {
        const requestId = `setup-fails-${i}`;
        s.send({ type: 'chat.send', requestId, chatId: null, content: `Remember this ${i}` });
        expect((await s.next('error', (f) => f.requestId === requestId)).code).toBe('INTERNAL');
      }
      const question = s.all('message.created').find((f) => f.requestId === 'setup-fails-0');
      expect(question?.message.role).toBe('user');
      const [answer] = await the.t.ctx.db
        .select()
        .from(messages)
        .where(and(eq(messages.chatId, question!.chatId), eq(messages.role, 'assistant')));
      // Not left streaming for the sweep: ended at once, with the reason the web translates.
      expect(answer).toMatchObject({ status: 'error', errorCode: 'INTERNAL' });
    } finally {
      failing.mockRestore();
    }
    const r = await exchange(s, { content: 'And now?' });
    expect(r.done).toMatchObject({ status: 'complete' });
  });

  it('refuses a second answer in a chat while one is generating', async () => {
    const s = await connect(the.alice);
    the.fx.setScript({ text: ANSWER, delayMs: 40 });
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'Slow one' });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    s.send({ type: 'chat.send', requestId: 'dup', chatId: a.chatId, content: 'Another' });
    expect((await s.next('error', (f) => f.requestId === 'dup')).code).toBe('CONFLICT');
    await s.next('message.done', (f) => f.messageId === a.message.messageId);
  });
});

describe('regenerate and edit keep the old branch', () => {
  it('regenerates an answer as a sibling; the old answer stays', async () => {
    const s = await connect(the.alice);
    const r = await exchange(s, { content: 'Question' });
    the.fx.setScript({ text: 'A different answer.' });
    const from = s.frames.length;
    s.send({
      type: 'chat.regenerate',
      chatId: r.chatId,
      messageId: r.assistant.messageId,
      requestId: 'regen',
    });
    const created = await s.next('message.created', (f) => f.requestId === 'regen', 10_000, from);
    expect(created.message).toMatchObject({ role: 'assistant', parentId: r.user.messageId });
    expect(created.message.messageId).not.toBe(r.assistant.messageId);
    await s.next('message.done', (f) => f.messageId === created.message.messageId, 10_000, from);
    expect((await messageRow(created.message.messageId))?.content).toBe('A different answer.');
    expect((await messageRow(r.assistant.messageId))?.content).toBe(ANSWER);
    // The context of the new answer is the question alone, not the old answer.
    const body = the.fx.chatRequests().at(-1)?.body as { messages: unknown[] };
    expect(body.messages).toEqual([{ role: 'user', content: 'Question' }]);
  });

  it('edits a message: a new user message beside it with its own answer; the old branch stays', async () => {
    const s = await connect(the.alice);
    const first = await exchange(s, { content: 'One' });
    const second = await exchange(s, { chatId: first.chatId, content: 'Two' });
    the.fx.reset();
    const from = s.frames.length;
    s.send({
      type: 'chat.edit',
      requestId: 'edit',
      chatId: first.chatId,
      messageId: second.user.messageId,
      content: 'Two, edited',
    });
    const user = await s.next(
      'message.created',
      (f) => f.requestId === 'edit' && f.message.role === 'user',
      10_000,
      from,
    );
    expect(user.message).toMatchObject({ content: 'Two, edited', parentId: first.assistant.messageId });
    const answer = await s.next(
      'message.created',
      (f) => f.requestId === 'edit' && f.message.role === 'assistant',
      10_000,
      from,
    );
    expect(answer.message.parentId).toBe(user.message.messageId);
    await s.next('message.done', (f) => f.messageId === answer.message.messageId, 10_000, from);
    expect((await messageRow(second.user.messageId))?.content).toBe('Two');
    expect((await messageRow(second.assistant.messageId))?.content).toBe(ANSWER);
    const body = the.fx.chatRequests()[0]?.body as { messages: Array<{ content: unknown }> };
    expect(body.messages.map((m) => m.content)).toEqual(['One', ANSWER, 'Two, edited']);

    // Editing the very first message starts a new root.
    s.send({
      type: 'chat.edit',
      requestId: 'edit-root',
      chatId: first.chatId,
      messageId: first.user.messageId,
      content: 'Zero',
    });
    const root = await s.next(
      'message.created',
      (f) => f.requestId === 'edit-root' && f.message.role === 'user',
    );
    expect(root.message.parentId).toBeNull();
    const rootAnswer = await s.next(
      'message.created',
      (f) => f.requestId === 'edit-root' && f.message.role === 'assistant',
    );
    await s.next('message.done', (f) => f.messageId === rootAnswer.message.messageId);
  });

  it('refuses to edit an answer or regenerate an unknown message', async () => {
    const s = await connect(the.alice);
    const r = await exchange(s, { content: 'Q' });
    s.send({
      type: 'chat.edit',
      requestId: 'e1',
      chatId: r.chatId,
      messageId: r.assistant.messageId,
      content: 'x',
    });
    expect((await s.next('error', (f) => f.requestId === 'e1')).code).toBe('VALIDATION_FAILED');
    s.send({
      type: 'chat.regenerate',
      requestId: 'g1',
      chatId: r.chatId,
      messageId: '00000000-0000-4000-8000-000000000000',
    });
    expect((await s.next('error', (f) => f.requestId === 'g1')).code).toBe('NOT_FOUND');
  });
});
