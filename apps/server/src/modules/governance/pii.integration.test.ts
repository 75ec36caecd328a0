import {
  ApiKeyCreatedSchema,
  ChatImportReportSchema,
  type McpServer,
  type PiiSettings,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { eq, like } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats, messages } from '../../db/schema/index.ts';
import { TestSocket } from '../../test/agents-client.ts';
import { DOCX, ORIGIN, useAgentsSuite } from '../../test/agents-suite.ts';
import { json, simpleChatGpt } from '../../test/chat-exports.ts';
import { postFile } from '../../test/chats.ts';
import { visitorToken } from '../../test/embedded.ts';
import type { TestUser } from '../../test/factories.ts';
import { makeDocx, makePdf } from '../../test/knowledge/documents.ts';
import { type McpStandin, startMcpStandin } from '../../test/mcp-standin.ts';

// The PII filter at every entry point (docs/ARCHITECTURE.md#pii-filter): what the model (the
// fixture) receives, what is stored, and what a refusal says, over the real socket, /v1 and tools.

const CPF = '529.982.247-25';
/** The same CPF with a wrong check digit: not a CPF, left alone. */
const NOT_A_CPF = '529.982.247-26';
const EMAIL = 'ana.souza@example.com';
const SENSITIVE = `Meu CPF é ${CPF} e meu e-mail ${EMAIL}`;

let mcp: McpStandin;
const { the, connect, rid, exchange, restChat, attachAll, messageRow, chatsOf, waitForStored } =
  useAgentsSuite({
    allow: async () => {
      mcp = await startMcpStandin();
      return [`127.0.0.1:${mcp.port}`];
    },
  });
afterAll(async () => {
  await mcp?.close();
});

let server: McpServer;
beforeAll(async () => {
  const res = await the.t.app.inject({
    method: 'POST',
    url: '/api/v1/integration/mcp',
    headers: the.admin.headers,
    payload: { displayName: 'Stand-in', url: mcp.url },
  });
  expect(res.statusCode, res.body).toBe(201);
  server = res.json() as McpServer;
});

async function setPii(mode: PiiSettings['mode'], kinds: PiiSettings['kinds'] = ['cpf', 'email']) {
  const res = await the.t.app.inject({
    method: 'PUT',
    url: '/api/v1/settings/pii',
    headers: the.admin.headers,
    payload: { mode, kinds },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Everything the model was sent since the suite's last reset, as one text. */
const sentToModel = () => JSON.stringify(the.fx.chatRequests().map((r) => r.body));

/** Messages stored anywhere holding the CPF's digits as typed. */
const storedWithCpf = () =>
  the.t.ctx.db.select({ id: messages.id }).from(messages).where(like(messages.content, '%529.982.247-25%'));

/** Sends and waits for the refusal of that send. */
async function refused(s: TestSocket, frame: Record<string, unknown>) {
  const requestId = rid();
  s.send({ type: 'chat.send', requestId, chatId: null, ...frame });
  return s.next('error', (f) => f.requestId === requestId);
}

describe('the socket', () => {
  it('redact: the model and the database get [CPF] and [EMAIL], and so does the echo the person sees', async () => {
    await setPii('redact');
    const s = await connect(the.alice);
    const r = await exchange(s, { content: SENSITIVE });
    expect(r.user.content).toBe('Meu CPF é [CPF] e meu e-mail [EMAIL]');
    expect(r.done.status).toBe('complete');
    expect(sentToModel()).toContain('Meu CPF é [CPF] e meu e-mail [EMAIL]');
    expect(sentToModel()).not.toContain(CPF);
    expect(sentToModel()).not.toContain(EMAIL);
    expect((await messageRow(r.user.messageId))?.content).toBe('Meu CPF é [CPF] e meu e-mail [EMAIL]');
    // The chat is titled from the redacted text too.
    const [chat] = await the.t.ctx.db.select().from(chats).where(eq(chats.id, r.chatId));
    expect(chat?.title).not.toContain('529');
    expect(await storedWithCpf()).toEqual([]);
  });

  it('only the kinds chosen are touched, and a number failing its check digits passes unchanged', async () => {
    await setPii('redact', ['cpf']);
    const s = await connect(the.alice);
    const r = await exchange(s, { content: `Pedido ${NOT_A_CPF}, CPF ${CPF}, e-mail ${EMAIL}` });
    expect(r.user.content).toBe(`Pedido ${NOT_A_CPF}, CPF [CPF], e-mail ${EMAIL}`);
    expect(sentToModel()).toContain(`Pedido ${NOT_A_CPF}, CPF [CPF], e-mail ${EMAIL}`);
  });

  it('block: refused with PII_BLOCKED naming the kinds; nothing stored, nothing sent to the model', async () => {
    await setPii('block');
    const before = (await chatsOf(the.bob)).length;
    const s = await connect(the.bob);
    const error = await refused(s, { content: SENSITIVE });
    expect(error).toMatchObject({ code: 'PII_BLOCKED', kinds: ['email', 'cpf'] });
    expect(JSON.stringify(error)).not.toContain(CPF);
    expect(JSON.stringify(error)).not.toContain(EMAIL);
    expect(await chatsOf(the.bob)).toHaveLength(before);
    expect(await storedWithCpf()).toEqual([]);
    expect(the.fx.chatRequests()).toEqual([]);

    // A wrong check digit is no CPF: that send goes through.
    const r = await exchange(s, { content: `Pedido ${NOT_A_CPF}` });
    expect(r.user.content).toBe(`Pedido ${NOT_A_CPF}`);
  });

  it('an edit is filtered as a new message is: refused in block mode, redacted in redact mode', async () => {
    await setPii('off');
    const s = await connect(the.alice);
    const r = await exchange(s, { content: 'Meu documento' });
    await setPii('block');
    const requestId = rid();
    s.send({
      type: 'chat.edit',
      requestId,
      chatId: r.chatId,
      messageId: r.user.messageId,
      content: SENSITIVE,
    });
    expect(await s.next('error', (f) => f.requestId === requestId)).toMatchObject({
      code: 'PII_BLOCKED',
      kinds: ['email', 'cpf'],
    });
    expect(the.fx.chatRequests()).toHaveLength(1);

    await setPii('redact');
    const edited = rid();
    const from = s.frames.length;
    s.send({
      type: 'chat.edit',
      requestId: edited,
      chatId: r.chatId,
      messageId: r.user.messageId,
      content: SENSITIVE,
    });
    const created = await s.next(
      'message.created',
      (f) => f.requestId === edited && f.message.role === 'user',
      10_000,
      from,
    );
    expect(created.message.content).toBe('Meu CPF é [CPF] e meu e-mail [EMAIL]');
    await s.next('message.done', () => true, 10_000, from);
    expect(sentToModel()).not.toContain(CPF);
    expect(await storedWithCpf()).toEqual([]);
  });

  it('an embed’s visitor is filtered by the embed’s domain', async () => {
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
      await setPii('redact');
      const r = await exchange(s, { content: SENSITIVE });
      expect(r.user.content).toBe('Meu CPF é [CPF] e meu e-mail [EMAIL]');
      expect(sentToModel()).not.toContain(CPF);
      await setPii('block');
      expect(await refused(s, { content: `CPF ${CPF}` })).toMatchObject({
        code: 'PII_BLOCKED',
        kinds: ['cpf'],
      });
      expect(s.invalid).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('code assist (the editor’s session) is filtered as the web is', async () => {
    const pair = await the.t.ctx.identity.issueSession(the.alice.uid, { kind: 'editor', name: 'VS Code' });
    const s = await TestSocket.open(the.wsUrl, { origin: ORIGIN, token: pair.idToken });
    try {
      await setPii('redact', ['credential', 'email']);
      const r = await exchange(s, { content: 'Why does api_key = "hunter2hunter2" fail?' });
      expect(r.user.content).toBe('Why does api_key = "[CREDENTIAL]" fail?');
      expect(sentToModel()).not.toContain('hunter2hunter2');
      await setPii('block', ['credential']);
      expect(await refused(s, { content: 'password=hunter2hunter2' })).toMatchObject({
        code: 'PII_BLOCKED',
        kinds: ['credential'],
      });
      expect(s.invalid).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('/v1 with the official client', () => {
  async function client(who: TestUser) {
    const res = await the.t.app.inject({
      method: 'POST',
      url: '/api/v1/api_keys',
      headers: who.headers,
      payload: { name: 'pii' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return new OpenAI({
      apiKey: ApiKeyCreatedSchema.parse(res.json()).secret,
      baseURL: `${the.wsUrl.replace('ws:', 'http:').replace('/api/v1/agents/chat/', '')}/v1`,
      maxRetries: 0,
    });
  }

  it('redact: every message the client sends reaches the model redacted, streamed or not', async () => {
    await setPii('redact');
    const openai = await client(the.alice);
    await openai.chat.completions.create({
      model: the.modelId,
      messages: [
        { role: 'system', content: `Escreva para ${EMAIL}` },
        { role: 'user', content: [{ type: 'text', text: SENSITIVE }] },
      ],
    });
    const stream = await openai.chat.completions.create({
      model: the.modelId,
      stream: true,
      messages: [{ role: 'user', content: `CPF ${CPF}, pedido ${NOT_A_CPF}` }],
    });
    for await (const _ of stream) {
      // read to the end
    }
    expect(the.fx.chatRequests()).toHaveLength(2);
    expect(sentToModel()).toContain('Escreva para [EMAIL]');
    expect(sentToModel()).toContain('Meu CPF é [CPF] e meu e-mail [EMAIL]');
    expect(sentToModel()).toContain(`CPF [CPF], pedido ${NOT_A_CPF}`);
    expect(sentToModel()).not.toContain(CPF);
  });

  it('block: 422 pii_blocked naming the kinds, and the model is not called', async () => {
    await setPii('block');
    const openai = await client(the.alice);
    const failure = await openai.chat.completions
      .create({ model: the.modelId, messages: [{ role: 'user', content: SENSITIVE }] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    const err = failure as InstanceType<typeof OpenAI.APIError>;
    expect(err.status).toBe(422);
    expect(err.code).toBe('pii_blocked');
    expect(err.message).toContain('email, cpf');
    expect(err.message).not.toContain(CPF);
    expect(the.fx.chatRequests()).toEqual([]);
  });
});

describe('tool arguments', () => {
  async function santitoWithTools(): Promise<string> {
    const policy = await the.t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/tools',
      headers: the.admin.headers,
      payload: { rules: [{ match: `mcp:${server.id}:echo`, decision: 'allow' }], userServers: false },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const res = await the.t.app.inject({
      method: 'POST',
      url: '/api/v1/agent',
      headers: the.admin.headers,
      payload: { name: `Tools ${rid()}`, tools: [`mcp:${server.id}:*`] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { _id: string })._id;
  }

  it('redact: the tool is called with [CPF], and that is what is shown and kept', async () => {
    await setPii('redact');
    const agentId = await santitoWithTools();
    const calls = mcp.calls.length;
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"CPF 52998224725"}' }] },
      { text: 'Feito.' },
    );
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId, content: 'Use o echo' });
    expect(r.done.status).toBe('complete');
    expect(mcp.calls.slice(calls)).toEqual([{ name: 'echo', args: { text: 'CPF [CPF]' } }]);
    const call = await s.next('tool.call', (f) => f.messageId === r.assistant.messageId);
    expect(call.input).toEqual({ text: 'CPF [CPF]' });
    expect(JSON.stringify((await waitForStored(r.assistant.messageId))?.parts)).not.toContain('52998224725');
  });

  it('block: that one call is refused with an error the model reads; the answer goes on', async () => {
    await setPii('block');
    const agentId = await santitoWithTools();
    const calls = mcp.calls.length;
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"CPF 52998224725"}' }] },
      { text: 'Sem o CPF, então.' },
    );
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId, content: 'Use o echo' });
    expect(r.done.status).toBe('complete');
    expect(mcp.calls.length).toBe(calls);
    const call = await s.next('tool.call', (f) => f.messageId === r.assistant.messageId);
    const result = await s.next('tool.result', (f) => f.toolCallId === call.toolCallId);
    expect(result.status).toBe('error');
    expect(result.output).toContain('cpf');
    // The model's next step read the refusal.
    const second = JSON.stringify(the.fx.chatRequests()[1]?.body);
    expect(second).toContain('data filter');
    expect(second).not.toContain('52998224725');
    expect((await waitForStored(r.assistant.messageId))?.content).toBe('Sem o CPF, então.');
  });
});

describe('attachments', () => {
  const files = (): Array<[string, string, Buffer]> => [
    ['notes.txt', 'text/plain', Buffer.from(`Cliente: CPF ${CPF}; pedido ${NOT_A_CPF}`)],
    ['ficha.docx', DOCX, makeDocx('Ficha', [`CPF do cliente: ${CPF}`])],
    ['recibo.pdf', 'application/pdf', makePdf([`Recibo para CPF ${CPF}`])],
  ];

  it('redact: the model reads [CPF] in a text file, a DOCX and a PDF', async () => {
    await setPii('redact');
    const chat = await restChat(the.alice);
    const ids = await attachAll(chat.chatId, files());
    const s = await connect(the.alice);
    const r = await exchange(s, { chatId: chat.chatId, content: 'Leia', attachments: ids });
    expect(r.done.status).toBe('complete');
    const sent = sentToModel();
    expect(sent).toContain(`Cliente: CPF [CPF]; pedido ${NOT_A_CPF}`);
    expect(sent).toContain('CPF do cliente: [CPF]');
    expect(sent).toContain('Recibo para CPF [CPF]');
    expect(sent).not.toContain(CPF);
  });

  it('block: the answer ends in PII_BLOCKED naming the kinds before the model reads the file', async () => {
    await setPii('block');
    const chat = await restChat(the.alice);
    const [id] = await attachAll(chat.chatId, files().slice(1, 2));
    const s = await connect(the.alice);
    const requestId = rid();
    s.send({ type: 'chat.send', requestId, chatId: chat.chatId, content: 'Leia', attachments: [id] });
    expect(await s.next('error', (f) => f.requestId === requestId)).toMatchObject({
      code: 'PII_BLOCKED',
      kinds: ['cpf'],
    });
    expect(the.fx.chatRequests()).toEqual([]);
    const answer = (await the.t.ctx.db.select().from(messages).where(eq(messages.chatId, chat.chatId))).find(
      (m) => m.role === 'assistant',
    );
    // The answer's row ends with the refusal: the code is kept, never the text that caused it.
    expect(answer).toMatchObject({ status: 'error', errorCode: 'PII_BLOCKED' });
    expect(answer?.error).not.toContain(CPF);
  });
});

describe('chat import', () => {
  it('with the filter on, an imported conversation is kept redacted', async () => {
    await setPii('block');
    const res = await postFile(the.t.app, '/api/v1/chats/import', the.bob, {
      name: 'conversations.json',
      type: 'application/json',
      data: json([simpleChatGpt('pii-1', `Dados de ${EMAIL}`, `Meu CPF é ${CPF}`)]),
    });
    expect(res.statusCode, res.body).toBe(200);
    const report = ChatImportReportSchema.parse(res.json());
    expect(report.imported).toBe(1);
    const chatId = report.items[0]?.chatId ?? '';
    const [chat] = await the.t.ctx.db.select().from(chats).where(eq(chats.id, chatId));
    expect(chat?.title).toBe('Dados de [EMAIL]');
    const kept = await the.t.ctx.db.select().from(messages).where(eq(messages.chatId, chatId));
    expect(kept.map((m) => m.content)).toContain('Meu CPF é [CPF]');
    expect(await storedWithCpf()).toEqual([]);
  });
});
