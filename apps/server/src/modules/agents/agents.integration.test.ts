import type { AddressInfo } from 'node:net';
import {
  type Chat,
  ChatSchema,
  ErrorBodySchema,
  ErrorCodes,
  ErrorStatus,
  type Message,
  MessageSchema,
  WsLimits,
} from '@assistente/contracts';
import { eq, getTableColumns } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chats, messages, santitos, streamedContent, users } from '../../db/schema/index.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { multipartFile, TINY_PNG } from '../../test/chats.ts';
import { makeDomain, makeSantito, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { makeDocx, makePdf } from '../../test/knowledge/documents.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { describeWithRedis, replicaOf } from '../../test/redis.ts';
import { noProvider } from '../providers/errors.ts';
import { NO_PROVIDER_MESSAGE } from '../providers/index.ts';
import { MAX_INLINE_CHARS } from './prompt.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const ORIGIN = 'http://localhost:3999';
const ANSWER = 'The quick brown fox jumps over the lazy dog and keeps running far away.';

let t: TestApp;
let fx: LlmFixture;
let wsUrl: string;
let dom: TestDomain;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let outsider: TestUser;
let lonely: TestUser;
let modelId: string;
const open: TestSocket[] = [];

async function connect(who: TestUser, opts: { origin?: string } = {}): Promise<TestSocket> {
  const s = await TestSocket.open(wsUrl, { origin: opts.origin ?? ORIGIN, token: who.idToken });
  open.push(s);
  return s;
}
async function raw(opts: { origin?: string } = {}): Promise<TestSocket> {
  const s = await TestSocket.open(wsUrl, opts.origin ? { origin: opts.origin } : {});
  open.push(s);
  return s;
}

let seq = 0;
const rid = () => `r${++seq}`;

/** A message as stored, text streamed so far included (see messageChunks). */
async function messageRow(id: string) {
  const [row] = await t.ctx.db
    .select({ ...getTableColumns(messages), content: streamedContent })
    .from(messages)
    .where(eq(messages.id, id));
  return row;
}
async function chatRow(id: string) {
  const [row] = await t.ctx.db.select().from(chats).where(eq(chats.id, id));
  return row;
}
async function chatsOf(who: TestUser) {
  return t.ctx.db.select().from(chats).where(eq(chats.userId, who.user.id));
}
async function waitForStored(id: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await messageRow(id);
    if (row && row.status !== 'streaming') return row;
    if (Date.now() > deadline) throw new Error(`message ${id} still streaming`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function restChat(who: TestUser, body: object = {}): Promise<Chat> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/chats',
    headers: who.headers,
    payload: body,
  });
  expect(res.statusCode).toBe(201);
  return ChatSchema.parse(res.json());
}

/** Sends and waits for the whole exchange: user message, answer start, answer end. */
/** Uploads files to alice's chat, answering their attachment ids in order. */
async function attachAll(chatId: string, files: Array<[string, string, Buffer]>): Promise<string[]> {
  const ids: string[] = [];
  for (const [name, type, data] of files) {
    const body = await multipartFile(name, type, data);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chatId}/attachments`,
      headers: { ...alice.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    ids.push((res.json() as { attachmentId: string }).attachmentId);
  }
  return ids;
}

async function exchange(s: TestSocket, frame: Record<string, unknown>) {
  const requestId = (frame.requestId as string | undefined) ?? rid();
  const from = s.frames.length;
  s.send({ type: 'chat.send', requestId, chatId: null, content: 'Hello there', ...frame });
  const user = await s.next(
    'message.created',
    (f) => f.requestId === requestId && f.message.role === 'user',
    10_000,
    from,
  );
  const assistant = await s.next(
    'message.created',
    (f) => f.requestId === requestId && f.message.role === 'assistant',
    10_000,
    from,
  );
  const done = await s.next('message.done', (f) => f.messageId === assistant.message.messageId, 10_000, from);
  return { requestId, chatId: user.chatId, user: user.message, assistant: assistant.message, done };
}

beforeAll(async () => {
  fx = await startLlmFixture({ script: { text: ANSWER } });
  t = await buildTestApp({
    PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}`,
    AGENT_SENDS_PER_MINUTE: '10000',
    AGENT_MAX_CONCURRENT: '50',
    UPLOAD_MAX_BYTES: String(64 * 1024),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/agents/chat/`;
  dom = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain: dom, role: 'Admin' });
  alice = await makeUser(t.ctx, { domain: dom });
  bob = await makeUser(t.ctx, { domain: dom });
  lonely = await makeUser(t.ctx);
  const otherDomain = await makeDomain(t.ctx);
  outsider = await makeUser(t.ctx, { domain: otherDomain, role: 'Admin' });
  for (const who of [admin, outsider]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/providers',
      headers: who.headers,
      payload: {
        kind: 'openai-compatible',
        label: 'Fixture',
        baseUrl: fx.baseUrl,
        apiKey: 'sk-fixture-0123456789',
        models: ['fixture-small'],
      },
    });
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { id: string }).id;
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/ai',
      headers: who.headers,
      payload: { defaultModel: `${id}:fixture-small` },
    });
    expect(put.statusCode).toBe(200);
    if (who === admin) modelId = `${id}:fixture-small`;
  }
}, 120_000);

beforeEach(() => {
  fx.reset();
});

afterEach(async () => {
  for (const s of open.splice(0)) {
    expect(s.invalid).toEqual([]);
    await s.close();
  }
});

afterAll(async () => {
  await t?.close();
  await fx?.close();
});

describe('handshake and auth', () => {
  it('answers a valid auth frame with ready, and ping with pong', async () => {
    const s = await connect(alice);
    expect(s.frames[0]).toMatchObject({
      type: 'ready',
      userId: alice.user.id,
      limits: { maxFrameBytes: WsLimits.maxFrameBytes },
    });
    s.send({ type: 'ping', id: 'p1' });
    expect(await s.next('pong')).toEqual({ type: 'pong', id: 'p1' });
  });

  it('accepts the no-slash path and a client without Origin (the editor extension)', async () => {
    const s = await TestSocket.open(wsUrl.replace(/\/$/, ''), { token: alice.idToken });
    open.push(s);
    expect(s.frames[0]?.type).toBe('ready');
  });

  it('answers an upgrade to any other path with 404; a query does not change the path', async () => {
    for (const path of ['/api/v1/chats', '/api/v1/agents/chat/x', '/nowhere', '/']) {
      await expect(
        TestSocket.open(wsUrl.replace('/api/v1/agents/chat/', path), {
          origin: ORIGIN,
          token: alice.idToken,
        }),
      ).rejects.toThrow('handshake refused: 404');
    }
    const s = await TestSocket.open(`${wsUrl}?v=1`, { origin: ORIGIN, token: alice.idToken });
    open.push(s);
    expect(s.frames[0]?.type).toBe('ready');
  });

  it('refuses a handshake from another origin', async () => {
    await expect(
      TestSocket.open(wsUrl, { origin: 'https://evil.example', token: alice.idToken }),
    ).rejects.toThrow(/403/);
  });

  it('closes with 4401 when no auth frame comes within 5 s', async () => {
    const s = await raw({ origin: ORIGIN });
    const started = Date.now();
    const closed = await s.closed;
    expect(closed.code).toBe(4401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(WsLimits.authTimeoutMs - 200);
  }, 10_000);

  it('closes with 4401 on a bad token', async () => {
    const s = await raw({ origin: ORIGIN });
    s.send({ type: 'auth', token: 'not-a-token' });
    expect((await s.closed).code).toBe(4401);
    expect(s.all('error')[0]?.code).toBe('UNAUTHENTICATED');
  });

  it('closes with 4401 when the first frame is not auth, or not even JSON', async () => {
    const a = await raw({ origin: ORIGIN });
    a.send({ type: 'ping' });
    expect((await a.closed).code).toBe(4401);
    const b = await raw({ origin: ORIGIN });
    b.send('{nope');
    expect((await b.closed).code).toBe(4401);
    expect(b.all('error')[0]?.code).toBe('BAD_FRAME');
  });

  it('takes a fresh token for the same account and refuses another account', async () => {
    const s = await connect(alice);
    const again = await t.ctx.identity.issueSession(alice.uid, { kind: 'web', name: 'again' });
    s.send({ type: 'auth', token: again.idToken });
    await s.next('ready', undefined, 5_000, 1);
    s.send({ type: 'auth', token: bob.idToken });
    expect((await s.closed).code).toBe(4401);
  });
});

describe('bad frames get an error frame, and the socket lives on', () => {
  it('answers invalid JSON, unknown types, missing fields and binary frames', async () => {
    const s = await connect(alice);
    s.send('this is not json');
    expect(await s.next('error')).toMatchObject({ code: 'BAD_FRAME' });
    s.send({ type: 'chat.explode', requestId: 'x1' });
    const frame = await s.next('error', (f) => f.requestId === 'x1');
    expect(frame).toMatchObject({ code: 'BAD_FRAME' });
    // One error model: the frame's code is an API code, with the status the HTTP body would carry.
    expect(ErrorCodes).toContain(frame.code);
    expect(ErrorStatus[frame.code]).toBe(400);
    s.send({ type: 'chat.send', requestId: 'x2', chatId: null });
    const missing = await s.next('error', (f) => f.requestId === 'x2');
    expect(missing.code).toBe('VALIDATION_FAILED');
    expect(missing.message).toContain('content');
    s.send({ type: 'chat.stop', chatId: 'not-a-uuid' });
    expect((await s.next('error', (f) => f.message.includes('chatId'))).code).toBe('VALIDATION_FAILED');
    s.send({ type: 'ping', extra: true });
    expect((await s.next('error', (f) => f.message.includes('ping'))).code).toBe('VALIDATION_FAILED');
    s.send(42);
    s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await s.next('error', (f) => f.message.includes('JSON text'));
    s.send({ type: 'ping', id: 'still-alive' });
    expect(await s.next('pong')).toEqual({ type: 'pong', id: 'still-alive' });
    expect(fx.chatRequests()).toHaveLength(0);
  });

  it('closes with 1009 on a frame over 1 MiB', async () => {
    const s = await connect(alice);
    s.send({
      type: 'chat.send',
      requestId: 'big',
      chatId: null,
      content: 'x'.repeat(WsLimits.maxFrameBytes + 10),
    });
    expect((await s.closed).code).toBe(1009);
  });

  it('refuses a message over the content limit with an error frame', async () => {
    const s = await connect(alice);
    s.send({
      type: 'chat.send',
      requestId: 'long',
      chatId: null,
      content: 'x'.repeat(WsLimits.maxContentChars + 1),
    });
    expect((await s.next('error', (f) => f.requestId === 'long')).code).toBe('VALIDATION_FAILED');
  });
});

describe('chat.send', () => {
  it('creates a chat, commits the user message first, streams the answer and stores it with usage', async () => {
    const s = await connect(alice);
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
    expect(r.assistant.model).toBe(modelId);
    expect(s.textOf(r.assistant.messageId)).toBe(ANSWER);
    expect(r.done).toMatchObject({ status: 'complete', finishReason: 'stop' });
    expect(r.done.usage).toEqual({ inputTokens: 4, outputTokens: 14, totalTokens: 18 });

    const stored = await messageRow(r.assistant.messageId);
    expect(stored).toMatchObject({ status: 'complete', content: ANSWER, model: modelId });
    expect(stored?.usage).toEqual({ inputTokens: 4, outputTokens: 14, totalTokens: 18 });
    expect((await messageRow(r.user.messageId))?.status).toBe('complete');

    // The new chat is stored with its first message, titled from it.
    expect(created?.chat.title).toBe('Tell me about foxes');
    expect((await chatRow(r.chatId))?.title).toBe('Tell me about foxes');
  });

  it('an untitled chat takes its title from the first message sent to it, announced before the message', async () => {
    const s = await connect(alice);
    const chat = await restChat(alice);
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
    const s = await connect(alice);
    const before = (await chatsOf(alice)).length;
    for (const [i, bad] of [
      { content: '   ' },
      { content: 'ok', parentId: crypto.randomUUID() },
      { content: 'ok', attachments: [crypto.randomUUID()] },
    ].entries()) {
      const requestId = `refused-${i}`;
      s.send({ type: 'chat.send', requestId, chatId: null, ...bad });
      expect((await s.next('error', (f) => f.requestId === requestId)).code).toBe('VALIDATION_FAILED');
    }
    expect(await chatsOf(alice)).toHaveLength(before);
    expect(s.all('chat.created')).toHaveLength(0);
  });

  it('the user message is in the database when message.created arrives', async () => {
    const s = await connect(alice);
    fx.setScript({ text: ANSWER, firstDelayMs: 300 });
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
    const chat = await restChat(alice, { title: 'Existing' });
    const s = await connect(alice);
    const first = await exchange(s, { chatId: chat.chatId, content: 'First question' });
    fx.reset();
    const params = { temperature: 0.2, maxTokens: 50, instructions: 'Answer in French.' };
    const second = await exchange(s, { chatId: chat.chatId, content: 'Second question', params });
    expect(second.user.parentId).toBe(first.assistant.messageId);
    const body = fx.chatRequests()[0]?.body as {
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
    const [row] = await t.ctx.db.select().from(chats).where(eq(chats.id, chat.chatId));
    expect(row?.params).toEqual(params);
    expect(row?.title).toBe('Existing');
  });

  it("puts the santito's instructions before the chat's in the system prompt", async () => {
    const santito = await makeSantito(t.ctx, admin);
    await t.ctx.db
      .update(santitos)
      .set({ instructions: 'You are Santito, a helpful fox.' })
      .where(eq(santitos.id, santito.id));
    const s = await connect(alice);
    const r = await exchange(s, {
      agentId: santito.id,
      content: 'Who are you?',
      params: { instructions: 'Be brief.' },
    });
    expect(s.all('chat.created').find((f) => f.chat.chatId === r.chatId)?.chat.agentId).toBe(santito.id);
    const body = fx.chatRequests()[0]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: 'You are Santito, a helpful fox.\n\nBe brief.',
    });
  });

  it("answers with the domain's default model once a santito's own model is gone", async () => {
    const santito = await makeSantito(t.ctx, admin);
    await t.ctx.db.update(santitos).set({ model: 'p0removed0000:old' }).where(eq(santitos.id, santito.id));
    const s = await connect(alice);
    const r = await exchange(s, { agentId: santito.id, content: 'Still there?' });
    expect(r.done.status).toBe('complete');
    const model = (fx.chatRequests()[0]?.body as { model?: unknown } | undefined)?.model;
    expect(model).toEqual(expect.any(String));
    expect(model).not.toBe('old');
  });

  it('passes images as image parts and inlines text files', async () => {
    const chat = await restChat(alice);
    const ids = await attachAll(chat.chatId, [
      ['dot.png', 'image/png', TINY_PNG],
      ['notes.txt', 'text/plain', Buffer.from('The secret word is pineapple.')],
    ]);
    const s = await connect(alice);
    const r = await exchange(s, { chatId: chat.chatId, content: 'Look at these', attachments: ids });
    expect(r.user.attachments?.map((a) => a.name)).toEqual(['dot.png', 'notes.txt']);
    const body = fx.chatRequests()[0]?.body as {
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
    const chat = await restChat(alice);
    const long = `${'w'.repeat(MAX_INLINE_CHARS)}TAIL-NOT-SENT`;
    const ids = await attachAll(chat.chatId, [
      ['refunds.pdf', 'application/pdf', makePdf(['Refunds are paid within seven days.'])],
      ['travel.docx', DOCX, makeDocx('Travel', ['Book flights through the travel portal.'])],
      ['long.docx', DOCX, makeDocx('Long', [long], { deflate: true })],
      ['bomb.docx', DOCX, makeDocx('Bomb', ['x'], { deflate: true, padding: 40 * 1024 * 1024 })],
    ]);
    const s = await connect(alice);
    const r = await exchange(s, { chatId: chat.chatId, content: 'Read these', attachments: ids });
    const body = fx.chatRequests()[0]?.body as {
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
    const res = await t.app.inject({ url: `/api/v1/chats/${r.chatId}/messages`, headers: alice.headers });
    const stored = (res.json() as Message[]).find((m) => m.messageId === r.done.messageId);
    expect(stored?.attachmentReadings).toEqual(readings);
  });

  it('refuses a second answer in a chat while one is generating', async () => {
    const s = await connect(alice);
    fx.setScript({ text: ANSWER, delayMs: 40 });
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
    const s = await connect(alice);
    const r = await exchange(s, { content: 'Question' });
    fx.setScript({ text: 'A different answer.' });
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
    const body = fx.chatRequests().at(-1)?.body as { messages: unknown[] };
    expect(body.messages).toEqual([{ role: 'user', content: 'Question' }]);
  });

  it('edits a message: a new user message beside it with its own answer; the old branch stays', async () => {
    const s = await connect(alice);
    const first = await exchange(s, { content: 'One' });
    const second = await exchange(s, { chatId: first.chatId, content: 'Two' });
    fx.reset();
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
    const body = fx.chatRequests()[0]?.body as { messages: Array<{ content: unknown }> };
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
    const s = await connect(alice);
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

describe('no loss', () => {
  it('stop keeps the partial answer with status stopped', async () => {
    const s = await connect(alice);
    fx.setScript({ text: ANSWER, delayMs: 60 });
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'Go slowly' });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await s.next(
      'message.delta',
      (f) => f.messageId === a.message.messageId && s.textOf(a.message.messageId).length > 10,
    );
    s.send({ type: 'chat.stop', chatId: a.chatId });
    const done = await s.next('message.done', (f) => f.messageId === a.message.messageId);
    expect(done).toMatchObject({ status: 'stopped', finishReason: 'stopped' });
    const row = await messageRow(a.message.messageId);
    expect(row?.status).toBe('stopped');
    expect(row?.content.length).toBeGreaterThan(10);
    expect(ANSWER.startsWith(row?.content ?? '!')).toBe(true);
    expect(row?.content).toBe(s.textOf(a.message.messageId));
    expect(row?.content).not.toBe(ANSWER);
  });

  it('a stop sent right behind the send, before the answer exists, still stops it', async () => {
    const chat = await restChat(alice);
    const s = await connect(alice);
    fx.setScript({ text: ANSWER, delayMs: 100 });
    s.send({ type: 'chat.send', requestId: 'racy', chatId: chat.chatId, content: 'Never mind' });
    s.send({ type: 'chat.stop', chatId: chat.chatId });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === 'racy' && f.message.role === 'assistant',
    );
    const done = await s.next('message.done', (f) => f.messageId === a.message.messageId);
    expect(done.status).toBe('stopped');
    expect((await messageRow(a.message.messageId))?.status).toBe('stopped');
  });

  it('a provider failing mid-stream leaves the partial text with status error', async () => {
    const s = await connect(alice);
    fx.setScript({ text: ANSWER, failAfterChunks: 4 });
    const r = await exchange(s, { content: 'Fail please' });
    expect(r.done.status).toBe('error');
    expect(r.done.error?.code).toBe('PROVIDER_ERROR');
    expect(r.done.error?.message).toMatch(/broke off during the answer/);
    // People read the failure as a code the web translates, never the English line.
    expect(r.done.error?.reason).toEqual({ code: 'broken_off' });
    const row = await messageRow(r.assistant.messageId);
    expect(row?.status).toBe('error');
    expect(row?.content).toBe('The quick brown fox ');
    expect(row?.error).toBeTruthy();
  });

  it('an error event from the provider ends the answer with status error, partial text kept', async () => {
    const s = await connect(alice);
    fx.setScript({ text: ANSWER, failAfterChunks: 2, failMode: 'error-event', errorMessage: 'overloaded' });
    const r = await exchange(s, { content: 'Fail again' });
    expect(r.done.status).toBe('error');
    expect((await messageRow(r.assistant.messageId))?.content).toBe('The quick ');
  });

  it('a provider refusing the key ends with a clear error and no text', async () => {
    const s = await connect(alice);
    fx.setScript({ status: 401 });
    const r = await exchange(s, { content: 'Bad key' });
    expect(r.done.status).toBe('error');
    expect(r.done.error?.message).toContain('API key');
    expect((await messageRow(r.assistant.messageId))?.error).toContain('API key');
    expect(r.done.error?.reason).toEqual({ code: 'key_refused', status: 401 });
    // Stored with the answer: the chat read again says it the same way.
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/chats/${r.done.chatId}/messages`,
      headers: alice.headers,
    });
    const stored = MessageSchema.array()
      .parse(listed.json())
      .find((m) => m.messageId === r.assistant.messageId);
    expect(stored).toMatchObject({
      errorCode: 'PROVIDER_ERROR',
      errorReason: { code: 'key_refused', status: 401 },
    });
    // The user's message stays: they can regenerate once the key is fixed.
    expect((await messageRow(r.user.messageId))?.status).toBe('complete');
  });

  it('a client going away does not stop the answer: it finishes and is stored in full', async () => {
    const s = await connect(alice);
    fx.setScript({ text: ANSWER, delayMs: 30 });
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'I will leave' });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await s.next('message.delta', (f) => f.messageId === a.message.messageId);
    s.ws.terminate();
    const row = await waitForStored(a.message.messageId);
    expect(row).toMatchObject({ status: 'complete', content: ANSWER });
    expect(row.usage?.outputTokens).toBe(14);
  });

  it('flushes the partial answer to the database while streaming', async () => {
    const s = await connect(alice);
    fx.setScript({ text: ANSWER, delayMs: 80 });
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: null, content: 'Flush' });
    const a = await s.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await s.next(
      'message.delta',
      (f) => f.messageId === a.message.messageId && s.textOf(a.message.messageId).length > 20,
    );
    // Stored while it still streams: the first flush, however soon it comes.
    const deadline = Date.now() + 5_000;
    let mid = await messageRow(a.message.messageId);
    while ((mid?.content.length ?? 0) <= 10 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      mid = await messageRow(a.message.messageId);
    }
    expect(mid?.status).toBe('streaming');
    expect(mid?.content.length).toBeGreaterThan(10);
    await s.next('message.done', (f) => f.messageId === a.message.messageId);
  });

  it('a reconnecting client resumes a stream in progress with chat.subscribe', async () => {
    const first = await connect(alice);
    fx.setScript({ text: ANSWER, delayMs: 40 });
    const requestId = rid();
    first.send({ type: 'chat.send', requestId, chatId: null, content: 'Resume me' });
    const a = await first.next(
      'message.created',
      (f) => f.requestId === requestId && f.message.role === 'assistant',
    );
    await first.next(
      'message.delta',
      (f) => f.messageId === a.message.messageId && first.textOf(a.message.messageId).length > 15,
    );
    first.ws.terminate();
    await new Promise((r) => setTimeout(r, 100));

    const again = await connect(alice);
    again.send({ type: 'chat.subscribe', chatId: a.chatId, requestId: 'sub' });
    const snapshot = await again.next('message.snapshot', (f) => f.message.messageId === a.message.messageId);
    expect(snapshot.message.status).toBe('streaming');
    expect(snapshot.message.content.length).toBeGreaterThan(15);
    const subscribed = await again.next('chat.subscribed', (f) => f.requestId === 'sub');
    expect(subscribed.streaming).toEqual([a.message.messageId]);
    await again.next('message.done', (f) => f.messageId === a.message.messageId);
    expect(again.textOf(a.message.messageId)).toBe(ANSWER);
  });

  it('subscribing to a chat with nothing generating answers an empty list', async () => {
    const s = await connect(alice);
    const r = await exchange(s, { content: 'Done already' });
    s.send({ type: 'chat.subscribe', chatId: r.chatId });
    expect((await s.next('chat.subscribed', (f) => f.chatId === r.chatId)).streaming).toEqual([]);
  });
});

describe('who sees what', () => {
  it("every tab of the user sees the stream live; another user's socket sees nothing", async () => {
    const tab1 = await connect(alice);
    const tab2 = await connect(alice);
    const other = await connect(bob);
    const r = await exchange(tab1, { content: 'Shared with my tabs' });
    await tab2.next('message.done', (f) => f.messageId === r.assistant.messageId);
    expect(tab2.textOf(r.assistant.messageId)).toBe(ANSWER);
    expect(tab2.all('message.created').map((f) => f.message.messageId)).toEqual([
      r.user.messageId,
      r.assistant.messageId,
    ]);
    // A round trip of Bob's own: a frame meant for Alice's chat would have reached him before it.
    other.send({ type: 'chat.subscribe', requestId: 'mine', chatId: crypto.randomUUID() });
    await other.next('error', (f) => f.requestId === 'mine');
    expect(other.frames.map((f) => f.type)).toEqual(['ready', 'error']);
  });

  it("cannot send to, regenerate, edit, stop or subscribe to another user's chat", async () => {
    const s = await connect(alice);
    const mine = await exchange(s, { content: 'Private' });
    fx.reset();
    for (const who of [bob, outsider]) {
      const intruder = await connect(who);
      const frames = [
        { type: 'chat.send', requestId: 'i1', chatId: mine.chatId, content: 'hi' },
        {
          type: 'chat.regenerate',
          requestId: 'i2',
          chatId: mine.chatId,
          messageId: mine.assistant.messageId,
        },
        {
          type: 'chat.edit',
          requestId: 'i3',
          chatId: mine.chatId,
          messageId: mine.user.messageId,
          content: 'x',
        },
        { type: 'chat.stop', requestId: 'i4', chatId: mine.chatId },
        { type: 'chat.subscribe', requestId: 'i5', chatId: mine.chatId },
      ];
      for (const f of frames) {
        intruder.send(f);
        const err = await intruder.next('error', (e) => e.requestId === f.requestId);
        expect(err.code).toBe('NOT_FOUND');
      }
      expect(intruder.all('message.created')).toEqual([]);
    }
    expect(fx.chatRequests()).toHaveLength(0);
    const rows = await t.ctx.db.select().from(messages).where(eq(messages.chatId, mine.chatId));
    expect(rows).toHaveLength(2);
  });

  it('refuses a santito of another domain', async () => {
    const foreign = await makeSantito(t.ctx, outsider);
    const s = await connect(alice);
    s.send({ type: 'chat.send', requestId: 'foreign', chatId: null, agentId: foreign.id, content: 'hi' });
    expect((await s.next('error', (f) => f.requestId === 'foreign')).code).toBe('VALIDATION_FAILED');
  });
});

describe('revocation is immediate', () => {
  it('deactivating the user closes their sockets at once (4403)', async () => {
    const victim = await makeUser(t.ctx, { domain: dom });
    const s = await connect(victim);
    await t.ctx.db.update(users).set({ active: false }).where(eq(users.id, victim.user.id));
    const started = Date.now();
    await t.ctx.services.callerStates.invalidate({ email: victim.user.id });
    expect((await s.closed).code).toBe(4403);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('revoking the session closes the socket (4401); other users stay connected', async () => {
    const victim = await makeUser(t.ctx, { domain: dom });
    const s = await connect(victim);
    const bystander = await connect(bob);
    await t.ctx.identity.revokeSession(victim.sessionId, 'test');
    expect((await s.closed).code).toBe(4401);
    bystander.send({ type: 'ping', id: 'ok' });
    await bystander.next('pong');
  });
});

// Two replicas behind a load balancer: one user's tabs land on different processes, joined by
// Redis (CI sets REDIS_URL for every test project). Without Redis one process is the whole app.
describeWithRedis('across replicas (Redis)', () => {
  const replica = replicaOf(() => t);
  const connectToReplica = async (who: TestUser) => {
    const s = await TestSocket.open(replica.wsUrl, { origin: ORIGIN, token: who.idToken });
    open.push(s);
    return s;
  };

  it('a tab on another replica sees the stream live, and can stop the next one', async () => {
    const here = await connect(alice);
    const there = await connectToReplica(alice);
    const r = await exchange(here, { content: 'Across replicas' });
    await there.next('message.done', (f) => f.messageId === r.assistant.messageId);
    expect(there.textOf(r.assistant.messageId)).toBe(ANSWER);

    fx.setScript({ text: ANSWER, delayMs: 50 });
    here.send({ type: 'chat.send', requestId: 'across-stop', chatId: r.chatId, content: 'Again' });
    const started = await there.next(
      'message.created',
      (f) => f.requestId === 'across-stop' && f.message.role === 'assistant',
    );
    there.send({ type: 'chat.stop', chatId: r.chatId });
    const row = await waitForStored(started.message.messageId);
    expect(row?.status).toBe('stopped');
  });

  it('deactivating a user on one replica closes their socket on the other at once', async () => {
    const victim = await makeUser(t.ctx, { domain: dom });
    const there = await connectToReplica(victim);
    const url = `/api/v1/user/${encodeURIComponent(victim.user.id)}`;
    const current = (await t.app.inject({ method: 'GET', url, headers: admin.headers })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: admin.headers,
      payload: { ...current, active: false },
    });
    expect(res.statusCode).toBe(200);
    // Deactivation disables the identity account too: whichever of the two the replica's check
    // meets first closes the socket, as forbidden (4403) or as no longer authenticated (4401).
    expect([4401, 4403]).toContain((await there.closed).code);
  });
});

describe('no provider', () => {
  it('answers NO_PROVIDER with a message for an Admin, and stores nothing', async () => {
    const s = await connect(lonely);
    s.send({ type: 'chat.send', requestId: 'np', chatId: null, content: 'Anyone there?' });
    const err = await s.next('error', (f) => f.requestId === 'np');
    expect(err).toMatchObject({ code: 'NO_PROVIDER', message: NO_PROVIDER_MESSAGE });
    expect(err.message).toContain('Settings → AI models');
    // The very AppError an HTTP route would answer with, code and message alike.
    const body = ErrorBodySchema.parse(noProvider().toBody());
    expect({ code: err.code, message: err.message }).toEqual({
      code: body.error.code,
      message: body.error.message,
    });
    const rows = await t.ctx.db.select().from(chats).where(eq(chats.userId, lonely.user.id));
    expect(rows).toEqual([]);
  });

  it('names an unknown model', async () => {
    const s = await connect(alice);
    s.send({
      type: 'chat.send',
      requestId: 'um',
      chatId: null,
      content: 'hi',
      params: { model: 'nope:missing' },
    });
    const err = await s.next('error', (f) => f.requestId === 'um');
    expect(err.code).toBe('MODEL_UNAVAILABLE');
    expect(err.message).toContain('nope:missing');
  });
});

describe('messages as the REST API shows them', () => {
  it('lists the stored answer with status and usage', async () => {
    const s = await connect(alice);
    const r = await exchange(s, { content: 'Through REST' });
    const res = await t.app.inject({ url: `/api/v1/chats/${r.chatId}/messages`, headers: alice.headers });
    const list = res.json() as Message[];
    expect(list.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(list[1]?.usage).toEqual({ inputTokens: 2, outputTokens: 14, totalTokens: 16 });
  });
});
