import type { AddressInfo } from 'node:net';
import {
  ApiKeyCreatedSchema,
  type Citation,
  MessageSchema,
  SantitoSchema,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSocket } from '../../test/agents-client.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { visitorToken } from '../../test/embedded.ts';
import type { TestDomain, TestUser } from '../../test/factories.ts';
import { makeDepartment, makeDomain, makeUser } from '../../test/factories.ts';
import { uploadHrHandbook } from '../../test/knowledge/hr-handbook.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';

const ORIGIN = 'http://localhost:3999';
const BASE = '/api/v1/integration/knowledge';

let fx: LlmFixture;
let t: TestApp;
let wsUrl: string;
let a: TestDomain;
let admin: TestUser;
let editor: TestUser;
let member: TestUser;
let stranger: TestUser;
let otherAdmin: TestUser;
let sourceId: string;
let santitoId: string;
let privateId: string;
const sockets: TestSocket[] = [];

async function api(who: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
}

async function ask(who: TestUser, agentId: string, content: string) {
  const s = await TestSocket.open(wsUrl, { origin: ORIGIN, token: who.idToken });
  sockets.push(s);
  const requestId = `r${Math.random()}`;
  s.send({ type: 'chat.send', requestId, chatId: null, agentId, content });
  const created = await s.next(
    'message.created',
    (f) => f.requestId === requestId && f.message.role === 'assistant',
    10_000,
  );
  const done = await s.next('message.done', (f) => f.messageId === created.message.messageId, 10_000);
  return { s, chatId: created.chatId, messageId: created.message.messageId, done };
}

const lastSystem = () => {
  const body = fx.chatRequests().at(-1)?.body as { messages: Array<{ role: string; content: string }> };
  return body.messages.find((m) => m.role === 'system')?.content ?? '';
};

beforeAll(async () => {
  fx = await startLlmFixture({
    models: ['fixture-small', 'fixture-embed'],
    script: { text: 'Thirty days [1].' },
  });
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}` });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/agents/chat/`;
  a = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  editor = await makeUser(t.ctx, { domain: a, role: 'Editor' });
  member = await makeUser(t.ctx, { domain: a });
  const elsewhere = await makeDepartment(t.ctx, a.domain.id, 'Elsewhere');
  stranger = await makeUser(t.ctx, { domain: a, department: elsewhere });
  otherAdmin = await makeUser(t.ctx, { domain: await makeDomain(t.ctx, { premium: true }), role: 'Admin' });
  const provider = await api(admin, 'POST', '/api/v1/settings/providers', {
    kind: 'openai-compatible',
    label: 'Fixture',
    baseUrl: fx.baseUrl,
  });
  expect(provider.statusCode, provider.body).toBe(201);
  sourceId = await uploadHrHandbook(t, admin);
  const made = await api(editor, 'POST', '/api/v1/agent', {
    name: 'HR helper',
    knowledge: [{ kind: 'source', ref: sourceId, title: 'HR handbook' }],
  });
  expect(made.statusCode, made.body).toBe(201);
  santitoId = SantitoSchema.parse(made.json())._id;
  const priv = await api(editor, 'POST', '/api/v1/agent', {
    name: 'HR private',
    knowledge: [{ kind: 'source', ref: sourceId, title: 'HR handbook' }],
    visibility: 'department',
    departmentId: a.department.id,
  });
  expect(priv.statusCode, priv.body).toBe(201);
  privateId = SantitoSchema.parse(priv.json())._id;
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
  await fx?.close();
}, 60_000);

describe('a santito with knowledge answers with citations', () => {
  it('puts the best passages in the model’s context and carries numbered citations', async () => {
    const { chatId, messageId, done } = await ask(member, santitoId, 'How many vacation days do I get?');
    const system = lastSystem();
    expect(system).toContain('[1] vacation — Vacation');
    expect(system).toContain('thirty days of paid vacation');
    const citations = done.citations as Citation[];
    expect(citations[0]).toEqual({
      title: 'vacation',
      url: expect.stringMatching(new RegExp(`^${BASE}/${sourceId}/documents/kd[0-9a-f]+/file$`)),
      sourceId,
    });
    // Stored on the message, as the history and the export read it.
    const res = await api(member, 'GET', `/api/v1/chats/${chatId}/messages`);
    const stored = (res.json() as unknown[])
      .map((m) => MessageSchema.parse(m))
      .find((m) => m.messageId === messageId);
    expect(stored?.citations).toEqual(citations);
    // Whoever may use the santito may open what it cites.
    const file = await api(member, 'GET', citations[0]!.url);
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('thirty days');
  });

  it('a santito without knowledge answers without citations', async () => {
    const plain = SantitoSchema.parse((await api(editor, 'POST', '/api/v1/agent', { name: 'Plain' })).json());
    const { done } = await ask(member, plain._id, 'How many vacation days do I get?');
    expect(done.citations).toBeUndefined();
    expect(lastSystem()).not.toContain('thirty days');
  });

  it('retrieval respects who may use the santito', async () => {
    // A user outside the santito's department cannot chat with it, nor open what it cites.
    const s = await TestSocket.open(wsUrl, { origin: ORIGIN, token: stranger.idToken });
    sockets.push(s);
    const before = fx.chatRequests().length;
    s.send({
      type: 'chat.send',
      requestId: 'x1',
      chatId: null,
      agentId: privateId,
      content: 'vacation days?',
    });
    expect(await s.next('error', (f) => f.requestId === 'x1')).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(fx.chatRequests().length).toBe(before);
    const { done } = await ask(member, privateId, 'When does the garage open?');
    const url = (done.citations as Citation[])[0]!.url;
    expect((await api(member, 'GET', url)).statusCode).toBe(200);
  });
});

describe('a santito that searches its knowledge itself (knowledge_search)', () => {
  it('finds nothing before the model asks; the tool’s passages are cited like knowledge', async () => {
    const made = await api(editor, 'POST', '/api/v1/agent', {
      name: 'HR searcher',
      knowledge: [{ kind: 'source', ref: sourceId, title: 'HR handbook' }],
      tools: ['builtin:knowledge_search'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const before = fx.chatRequests().length;
    fx.enqueue(
      { text: '', toolCalls: [{ name: 'knowledge_search', arguments: '{"query":"vacation days"}' }] },
      { text: 'Thirty days [1].' },
    );
    const { done } = await ask(member, SantitoSchema.parse(made.json())._id, 'How long are my holidays?');
    expect(done.status).toBe('complete');
    const [first, second] = fx
      .chatRequests()
      .slice(before)
      .map(
        (q) =>
          q.body as {
            messages: Array<{ role: string; content: unknown }>;
            tools?: Array<{ function: { name: string } }>;
          },
      );
    // Nothing was retrieved before the model chose to look.
    expect(JSON.stringify(first?.messages)).not.toContain('thirty days');
    expect(first?.tools?.map((t) => t.function.name)).toEqual(['knowledge_search']);
    const result = String(second?.messages.find((m) => m.role === 'tool')?.content);
    expect(result).toContain('[1] vacation — Vacation');
    expect(result).toContain('thirty days of paid vacation');
    const citations = done.citations as Citation[];
    expect(citations[0]).toMatchObject({ title: 'vacation', sourceId });
    expect((await api(member, 'GET', citations[0]!.url)).statusCode).toBe(200);
  });
});

describe('an embed’s visitors and the sources of their answers', () => {
  const SITE = 'https://shop.example.com';

  /** A visitor of a new embed showing `agentId`, and their id token. */
  async function visitorOf(agentId: string): Promise<string> {
    const made = await api(admin, 'POST', '/api/v1/virtual_account', {
      displayName: 'Loja',
      allowedOrigins: [SITE],
      agentId,
    });
    expect(made.statusCode, made.body).toBe(201);
    const { virtualAccountId } = VirtualAccountWithSecretSchema.parse(made.json());
    return visitorToken(t.app, virtualAccountId, SITE);
  }
  const open = (token: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  it('a visitor opens what the embed’s santito cites; a visitor of another embed cannot', async () => {
    const token = await visitorOf(santitoId);
    const s = await TestSocket.open(wsUrl, { origin: ORIGIN, token });
    sockets.push(s);
    s.send({ type: 'chat.send', requestId: 'v1', chatId: null, content: 'How many vacation days?' });
    const created = await s.next(
      'message.created',
      (f) => f.requestId === 'v1' && f.message.role === 'assistant',
      10_000,
    );
    const done = await s.next('message.done', (f) => f.messageId === created.message.messageId, 10_000);
    const url = (done.citations as Citation[])[0]!.url;
    const file = await open(token, url);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).toContain('thirty days');

    const plain = SantitoSchema.parse((await api(editor, 'POST', '/api/v1/agent', { name: 'Loja' })).json());
    expect((await open(await visitorOf(plain._id), url)).statusCode).toBe(404);
  });
});

describe('a santito with knowledge through the OpenAI-compatible API', () => {
  it('answers a key’s completion from the same passages as a chat', async () => {
    const made = await api(member, 'POST', '/api/v1/api_keys', { name: 'knowledge' });
    expect(made.statusCode, made.body).toBe(201);
    const { secret } = ApiKeyCreatedSchema.parse(made.json());
    const port = (t.app.server.address() as AddressInfo).port;
    const openai = new OpenAI({ apiKey: secret, baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
    const answer = await openai.chat.completions.create({
      model: `santito:${santitoId}`,
      messages: [{ role: 'user', content: 'How many vacation days do I get?' }],
    });
    expect(answer.choices[0]?.message.content).toBe('Thirty days [1].');
    const system = lastSystem();
    expect(system).toContain('[1] vacation — Vacation');
    expect(system).toContain('thirty days of paid vacation');
    // Someone who may not use the santito gets nothing of its knowledge.
    const theirs = await api(stranger, 'POST', '/api/v1/api_keys', { name: 'knowledge' });
    const refused = new OpenAI({
      apiKey: ApiKeyCreatedSchema.parse(theirs.json()).secret,
      baseURL: `http://127.0.0.1:${port}/v1`,
      maxRetries: 0,
    });
    await expect(
      refused.chat.completions.create({
        model: `santito:${privateId}`,
        messages: [{ role: 'user', content: 'How many vacation days do I get?' }],
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe('attaching sources', () => {
  it('an Editor lists the domain’s sources to attach them; a Viewer cannot', async () => {
    const res = await api(editor, 'GET', `${BASE}/choices`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ sourceId, kind: 'files', displayName: 'HR handbook', documents: 2 }]);
    expect((await api(member, 'GET', `${BASE}/choices`)).statusCode).toBe(403);
    expect((await api(otherAdmin, 'GET', `${BASE}/choices`)).json()).toEqual([]);
  });

  it('an Admin of another domain can neither attach a source nor answer from it', async () => {
    const res = await api(otherAdmin, 'POST', '/api/v1/agent', {
      name: 'Thief',
      knowledge: [{ kind: 'source', ref: sourceId, title: 'x' }],
    });
    expect(res.statusCode).toBe(400);
    const own = SantitoSchema.parse((await api(otherAdmin, 'POST', '/api/v1/agent', { name: 'Own' })).json());
    const put = await api(otherAdmin, 'PUT', `/api/v1/agent/${own._id}`, {
      knowledge: [{ kind: 'source', ref: sourceId, title: 'x' }],
    });
    expect(put.statusCode).toBe(400);
    expect((await api(otherAdmin, 'GET', `${BASE}/${sourceId}`)).statusCode).toBe(404);
  });
});
