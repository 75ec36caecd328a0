import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import {
  ApiKeyCreatedSchema,
  AuditEntrySchema,
  type ChatImportReport,
  ChatImportReportSchema,
  ChatSchema,
  MessageSchema,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chats } from '../../db/schema/index.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import {
  branchedChatGpt,
  chatGptConversation,
  json,
  lyingSizes,
  simpleChatGpt,
  simpleClaude,
  storedZip,
  T0,
  zeroBomb,
  zipOf,
} from '../../test/chat-exports.ts';
import { postFile } from '../../test/chats.ts';
import { visitorToken } from '../../test/embedded.ts';
import { makeDomain, makeUser, type TestUser } from '../../test/factories.ts';

// POST /api/v1/chats/import (docs/ARCHITECTURE.md#chat-import) over a real database: each
// export's shapes, idempotence, the limits a ZIP bomb meets, and who may import.

const SITE = 'https://shop.example.com';
let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  const a = await makeDomain(t.ctx, { premium: true });
  alice = await makeUser(t.ctx, { domain: a });
  bob = await makeUser(t.ctx, { domain: a });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  other = await makeUser(t.ctx, { role: 'Admin' });
});
afterAll(async () => {
  await t?.close();
});

const upload = (who: { headers: Record<string, string> }, name: string, type: string, data: Buffer) =>
  postFile(t.app, '/api/v1/chats/import', who, { name, type, data });

async function imported(who: TestUser, name: string, data: Buffer): Promise<ChatImportReport> {
  const type = name.endsWith('.zip') ? 'application/zip' : 'application/json';
  const res = await upload(who, name, type, data);
  expect(res.statusCode, res.body).toBe(200);
  return ChatImportReportSchema.strict().parse(res.json());
}

async function messagesOf(who: TestUser, chatId: string) {
  const res = await t.call('GET', `/api/v1/chats/${chatId}/messages?limit=200`, who);
  expect(res.statusCode, res.body).toBe(200);
  return z.array(MessageSchema).parse(res.json());
}

async function chatOf(who: TestUser, chatId: string) {
  const res = await t.call('GET', `/api/v1/chats/${chatId}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return ChatSchema.parse(res.json());
}

const chatCount = async (who: TestUser) =>
  (await t.ctx.db.select({ id: chats.id }).from(chats).where(eq(chats.userId, who.user.id))).length;

const importDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith('assistente-import-')).length;

describe('importing a ChatGPT export', () => {
  it('imports conversations.json: each conversation a chat, with its title, dates and messages', async () => {
    const person = await makeUser(t.ctx);
    const dirs = importDirs();
    const report = await imported(
      person,
      'conversations.json',
      json([
        simpleChatGpt('g-1', 'Saudação'),
        chatGptConversation({
          id: 'g-2',
          title: null,
          createTime: T0,
          updateTime: T0 + 5,
          nodes: [{ id: 'q', parent: null, role: 'user', text: 'Como faço pão?', time: T0 + 1 }],
        }),
      ]),
    );
    expect(report).toMatchObject({ format: 'chatgpt', imported: 2, skipped: 0, failed: [] });
    expect(report.items.map((i) => [i.title, i.status, i.messages])).toEqual([
      ['Saudação', 'imported', 2],
      // No title in the source: named by its first question, as a new chat is.
      ['Como faço pão?', 'imported', 1],
    ]);
    const chat = await chatOf(person, report.items[0]!.chatId!);
    expect(chat.title).toBe('Saudação');
    expect(chat.createdAt).toBe(new Date(T0 * 1000).toISOString());
    expect(chat.updatedAt).toBe(new Date((T0 + 60) * 1000).toISOString());
    const messages = await messagesOf(person, chat.chatId);
    expect(messages.map((m) => [m.role, m.content, m.status, m.createdAt])).toEqual([
      ['user', 'Olá?', 'complete', new Date((T0 + 1.25) * 1000).toISOString()],
      ['assistant', 'Olá! Como posso ajudar?', 'complete', new Date((T0 + 2.5) * 1000).toISOString()],
    ]);
    expect(messages[1]!.parentId).toBe(messages[0]!.messageId);
    // Listed by their own dates, among the person's chats.
    const list = await t.call('GET', '/api/v1/chats', person);
    expect(
      z
        .array(ChatSchema)
        .parse(list.json())
        .map((c) => c.title),
    ).toEqual(['Saudação', 'Como faço pão?']);
    // The temporary copy of the upload is gone.
    expect(importDirs()).toBe(dirs);
  });

  it('keeps the branches: both regenerated answers and both edited questions, under their parents', async () => {
    const person = await makeUser(t.ctx);
    const report = await imported(
      person,
      'export.zip',
      await zipOf({ 'conversations.json': json([branchedChatGpt()]) }),
    );
    expect(report.imported).toBe(1);
    const messages = await messagesOf(person, report.items[0]!.chatId!);
    const byText = new Map(messages.map((m) => [m.content, m]));
    const id = (text: string) => byText.get(text)?.messageId;
    const parentOf = (text: string) => byText.get(text)?.parentId;
    expect(messages).toHaveLength(7);
    expect(parentOf('Qual a capital da França?')).toBeNull();
    expect(parentOf('Paris.')).toBe(id('Qual a capital da França?'));
    expect(parentOf('A capital da França é Paris.')).toBe(id('Qual a capital da França?'));
    expect(parentOf('E da Itália?')).toBe(id('A capital da França é Paris.'));
    expect(parentOf('[image]\n\nE da Espanha?')).toBe(id('A capital da França é Paris.'));
    expect(parentOf('Roma.')).toBe(id('E da Itália?'));
    expect(parentOf('Madri.')).toBe(id('[image]\n\nE da Espanha?'));
    // Original dates, each after its parent's.
    expect(byText.get('Paris.')!.createdAt).toBe(new Date((T0 + 11) * 1000).toISOString());
    for (const m of messages) {
      const parent = messages.find((p) => p.messageId === m.parentId);
      if (parent) expect(Date.parse(m.createdAt)).toBeGreaterThan(Date.parse(parent.createdAt));
    }
  });

  it('imports a ZIP as downloaded, and the newer sharded conversations-NNN.json, ignoring the other files', async () => {
    const person = await makeUser(t.ctx);
    const report = await imported(
      person,
      'chatgpt-export.zip',
      await zipOf({
        'chat.html': '<html><body>…</body></html>',
        'user.json': json({ id: 'user-1', email: 'a@b.c' }),
        'message_feedback.json': '[]',
        'file-abc123.png': Buffer.alloc(2048, 7),
        'conversations-000.json': json([simpleChatGpt('s-1', 'Primeiro'), simpleChatGpt('s-2', 'Segundo')]),
        'conversations-001.json': json([simpleChatGpt('s-3', 'Terceiro')]),
      }),
    );
    expect(report).toMatchObject({ format: 'chatgpt', imported: 3, skipped: 0 });
    expect(report.items.map((i) => i.title)).toEqual(['Primeiro', 'Segundo', 'Terceiro']);
    expect(await chatCount(person)).toBe(3);
  });

  it('skips what was imported before: all of it on a second upload, with the chat it is', async () => {
    const person = await makeUser(t.ctx);
    const file = await zipOf({
      'conversations.json': json([simpleChatGpt('r-1', 'Um'), branchedChatGpt('r-2')]),
    });
    const first = await imported(person, 'export.zip', file);
    expect(first.imported).toBe(2);
    const again = await imported(person, 'export.zip', file);
    expect(again).toMatchObject({ imported: 0, skipped: 2, failed: [] });
    expect(again.items.map((i) => [i.status, i.reasonCode, i.chatId])).toEqual(
      first.items.map((i) => ['skipped', 'already_imported', i.chatId]),
    );
    expect(await chatCount(person)).toBe(2);
    // The same file is another person's own to import.
    const colleague = await makeUser(t.ctx, { domain: undefined });
    expect((await imported(colleague, 'export.zip', file)).imported).toBe(2);
  });

  it('reports each conversation that cannot be imported with its reason, and imports the rest', async () => {
    const person = await makeUser(t.ctx);
    const report = await imported(
      person,
      'conversations.json',
      json([
        simpleChatGpt('f-1', 'Boa'),
        chatGptConversation({ id: 'f-2', title: 'Vazia', createTime: T0, updateTime: T0, nodes: [] }),
        { title: 'Sem id', mapping: {} },
      ]),
    );
    expect(report.imported).toBe(1);
    expect(report.failed).toEqual([
      { title: 'Vazia', reason: 'The conversation has no messages to import' },
      { title: 'Sem id', reason: 'The conversation has no id' },
    ]);
    expect(report.items.map((i) => [i.status, i.reasonCode ?? null])).toEqual([
      ['imported', null],
      ['failed', 'empty'],
      ['failed', 'invalid'],
    ]);
  });
});

describe('importing a Claude export', () => {
  it('imports its conversations.json and its ZIP, dates kept', async () => {
    const person = await makeUser(t.ctx);
    const fromJson = await imported(person, 'conversations.json', json([simpleClaude('c-1', 'Odisseia')]));
    expect(fromJson).toMatchObject({ format: 'claude', imported: 1 });
    const chat = await chatOf(person, fromJson.items[0]!.chatId!);
    expect(chat.createdAt).toBe('2024-03-01T10:00:00.000Z');
    expect(chat.updatedAt).toBe('2024-03-01T10:05:00.000Z');
    const messages = await messagesOf(person, chat.chatId);
    expect(messages.map((m) => [m.role, m.content, m.createdAt])).toEqual([
      ['user', 'Resuma a Odisseia.', '2024-03-01T10:00:01.000Z'],
      ['assistant', 'Ulisses volta para casa.', '2024-03-01T10:00:05.000Z'],
    ]);

    const fromZip = await imported(
      person,
      'data-2024.zip',
      await zipOf({
        'users.json': json([{ uuid: 'u' }]),
        'projects.json': '[]',
        'conversations.json': json([simpleClaude('c-1', 'Odisseia'), simpleClaude('c-2', 'Ilíada')]),
      }),
    );
    expect(fromZip).toMatchObject({ format: 'claude', imported: 1, skipped: 1 });
  });
});

describe('what is refused, and nothing imported', () => {
  async function refused(who: TestUser, name: string, data: Buffer, status: number) {
    const before = await chatCount(who);
    const res = await upload(who, name, 'application/octet-stream', data);
    expect(res.statusCode, res.body).toBe(status);
    expect(await chatCount(who)).toBe(before);
    return errorOf(res);
  }

  it('refuses a ZIP bomb at once, with the limit in words, holding far less memory than it unpacks to', async () => {
    const person = await makeUser(t.ctx);
    // 400 MiB of zeros in ≈ 0.4 MiB.
    const bomb = zeroBomb('conversations.json', 400);
    const dirs = importDirs();
    let peak = 0;
    const base = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss - base);
    }, 2);
    try {
      const honest = await refused(person, 'bomb.zip', bomb, 413);
      expect(honest.code).toBe('PAYLOAD_TOO_LARGE');
      expect(honest.message).toMatch(
        /conversations\.json .*(larger than 256 MiB|compressed more than 100 times)/,
      );
      expect(honest.message).toContain('nothing was imported');
      expect(honest.details).toMatchObject({ reason: 'limit' });
      // Its headers lie (1 KiB): stopped as it unpacks, at the first byte past what they say.
      const liar = await refused(person, 'bomb.zip', lyingSizes(bomb, 1024), 413);
      expect(liar.message).toMatch(/unpacks to more than its header says/);
    } finally {
      clearInterval(sampler);
    }
    expect(peak).toBeLessThan(64 * 1024 * 1024);
    expect(importDirs()).toBe(dirs);
  });

  it('refuses a ZIP of more entries than the limit', async () => {
    const person = await makeUser(t.ctx);
    const files: Record<string, string> = { 'conversations.json': '[]' };
    for (let i = 0; i < 20_000; i++) files[`i/${i}.png`] = '';
    const err = await refused(person, 'many.zip', storedZip(files), 413);
    expect(err.message).toContain('more than 20000 files');
    expect(err.details).toMatchObject({ limit: 'entries', max: 20_000 });
  });

  it('refuses what is not an export with 400 naming what was expected, and other files with 415', async () => {
    const person = await makeUser(t.ctx);
    for (const doc of [{ mapping: {} }, [{ foo: 1 }], ['x']]) {
      const err = await refused(person, 'user.json', json(doc), 400);
      expect(err.message).toMatch(/is not a ChatGPT or Claude export: expected conversations\.json/);
      expect(err.details).toMatchObject({ reason: 'not_export' });
    }
    expect((await refused(person, 'conversations.json', json([]), 400)).details).toMatchObject({
      reason: 'no_conversations',
    });
    const broken = await refused(
      person,
      'conversations.json',
      Buffer.from('[{"title": "x", "mapping": {'),
      400,
    );
    expect(broken.details).toMatchObject({ reason: 'bad_json' });
    const noDocs = await refused(person, 'photos.zip', await zipOf({ 'a.png': 'x', 'user.json': '{}' }), 400);
    expect(noDocs.details).toMatchObject({ reason: 'not_export' });
    for (const other of [Buffer.from('<html>chat.html</html>'), Buffer.from([0x25, 0x50, 0x44, 0x46])]) {
      const err = await refused(person, 'chat.html', other, 415);
      expect(err.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const notMultipart = await t.call('POST', '/api/v1/chats/import', person, { conversations: [] });
    expect(notMultipart.statusCode).toBe(415);
  });
});

describe('who may import', () => {
  it('another domain’s person sees none of the imported chats', async () => {
    const report = await imported(alice, 'conversations.json', json([simpleChatGpt('own-1', 'Minha')]));
    const chatId = report.items[0]!.chatId!;
    for (const stranger of [other, bob]) {
      expect((await t.call('GET', `/api/v1/chats/${chatId}`, stranger)).statusCode).toBe(404);
      expect((await t.call('GET', `/api/v1/chats/${chatId}/messages`, stranger)).statusCode).toBe(404);
      const list = z.array(ChatSchema).parse((await t.call('GET', '/api/v1/chats', stranger)).json());
      expect(list.map((c) => c.chatId)).not.toContain(chatId);
    }
  });

  it('audits an import with its counts', async () => {
    await imported(bob, 'conversations.json', json([simpleChatGpt('aud-1', 'Auditada'), { title: 'x' }]));
    const res = await t.call('GET', '/api/v1/audit?action=chats.import', admin);
    expect(res.statusCode, res.body).toBe(200);
    const entries = z.array(AuditEntrySchema).parse(res.json());
    const entry = entries.find((e) => e.actor.id === bob.user.id);
    expect(entry).toMatchObject({
      action: 'chats.import',
      target: { type: 'user', id: bob.user.id },
      after: { format: 'chatgpt', file: 'conversations.json', imported: 1, skipped: 0, failed: 1 },
    });
  });

  it('refuses visitors of an embed, API keys and anonymous callers', async () => {
    const file = json([simpleChatGpt('no-1', 'Não')]);
    const made = await t.call('POST', '/api/v1/virtual_account', admin, {
      displayName: 'Loja',
      allowedOrigins: [SITE],
    });
    expect(made.statusCode, made.body).toBe(201);
    const visitor = await visitorToken(
      t.app,
      VirtualAccountWithSecretSchema.parse(made.json()).virtualAccountId,
      SITE,
    );
    const key = await t.call('POST', '/api/v1/api_keys', alice, { name: 'CI' });
    expect(key.statusCode, key.body).toBe(201);
    const secret = ApiKeyCreatedSchema.parse(key.json()).secret;
    const callers: Array<Record<string, string>> = [
      { authorization: `Bearer ${visitor}` },
      { authorization: `Bearer ${secret}` },
      {},
    ];
    for (const headers of callers) {
      const res = await upload({ headers }, 'conversations.json', 'application/json', file);
      expect(res.statusCode).toBe(401);
    }
    const sources = await t.ctx.db
      .select()
      .from(chats)
      .where(and(isNotNull(chats.importSource), eq(chats.importSource, 'chatgpt:no-1')));
    expect(sources).toEqual([]);
  });
});
