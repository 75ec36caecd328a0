import { rm } from 'node:fs/promises';
import path from 'node:path';
import { AttachmentSchema, type Chat, ChatSchema, MessageSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { attachments, messages } from '../../db/schema/index.ts';
import { buildTestApp, type Method, type TestApp } from '../../test/app.ts';
import { appendUserMessage, multipartFile, TINY_PNG } from '../../test/chats.ts';
import { UPLOAD_MAX, useChatsSuite } from '../../test/chats-suite.ts';
import { makeChat, makeDomain, makeSantito, makeUser, type TestUser } from '../../test/factories.ts';

const { s, call, upload, errorOf, createChat, chatRow, callerOf } = useChatsSuite();

describe('attachments', () => {
  it('uploads into the chats bucket under a generated key and downloads with safe headers', async () => {
    const chat = await createChat(s.alice);
    const res = await upload(s.alice, chat.chatId, '../../etc/foto de férias.png', 'image/png', TINY_PNG);
    expect(res.statusCode).toBe(201);
    const att = AttachmentSchema.strict().parse(res.json());
    expect(att).toMatchObject({ chatId: chat.chatId, name: 'foto de férias.png', contentType: 'image/png' });
    expect(att.size).toBe(TINY_PNG.length);
    const [row] = await s.t.ctx.db.select().from(attachments).where(eq(attachments.id, att.attachmentId));
    expect(row!.storageKey).not.toContain('férias');
    expect(row!.storageKey.startsWith(`${s.alice.user.domainId}/`)).toBe(true);

    const dl = await call('GET', att.url, s.alice);
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(dl.headers['content-type']).toBe('image/png');
    expect(dl.headers['content-disposition']).toBe(
      `attachment; filename="foto de ferias.png"; filename*=UTF-8''foto%20de%20f%C3%A9rias.png`,
    );
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    expect(dl.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
  });

  it('takes text files whose type the browser did not know, by extension', async () => {
    const chat = await createChat(s.alice);
    const md = await upload(s.alice, chat.chatId, 'notas.md', 'application/octet-stream', '# Notas\n');
    expect(md.statusCode).toBe(201);
    expect(AttachmentSchema.parse(md.json()).contentType).toBe('text/markdown');
    const csv = await upload(s.alice, chat.chatId, 'dados.csv', 'application/vnd.ms-excel', 'a,b\n1,2\n');
    expect(AttachmentSchema.parse(csv.json()).contentType).toBe('text/csv');
    const dl = await call('GET', AttachmentSchema.parse(csv.json()).url, s.alice);
    expect(dl.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(dl.body).toBe('a,b\n1,2\n');
  });

  it('refuses files over UPLOAD_MAX_BYTES with 413 and stores nothing', async () => {
    const chat = await createChat(s.alice);
    const res = await upload(s.alice, chat.chatId, 'big.txt', 'text/plain', 'a'.repeat(UPLOAD_MAX + 1));
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await s.t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.chatId))).toEqual(
      [],
    );
  });

  it('refuses types not allowed, and bytes that disagree with their type, with 415', async () => {
    const chat = await createChat(s.alice);
    const cases: Array<[string, string, Buffer | string]> = [
      ['page.html', 'text/html', '<script>alert(1)</script>'],
      ['logo.svg', 'image/svg+xml', '<svg onload="alert(1)"/>'],
      ['run.exe', 'application/x-msdownload', Buffer.from([0x4d, 0x5a, 0, 0])],
      ['fake.png', 'image/png', '<html><script>alert(1)</script></html>'],
      ['fake.pdf', 'application/pdf', 'not a pdf'],
      ['bin.txt', 'text/plain', Buffer.from([0x00, 0xff, 0xfe, 0x00])],
      ['noext', 'application/octet-stream', 'hello'],
    ];
    for (const [name, type, data] of cases) {
      const res = await upload(s.alice, chat.chatId, name, type, data);
      expect(res.statusCode, name).toBe(415);
      expect(errorOf(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await s.t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.chatId))).toEqual(
      [],
    );
  });

  it('refuses a body that is not multipart (415) or has no file (400)', async () => {
    const chat = await createChat(s.alice);
    const json = await call('POST', `/api/v1/chats/${chat.chatId}/attachments`, s.alice, { file: 'x' });
    expect(json.statusCode).toBe(415);
    const form = new FormData();
    form.append('note', 'just a field');
    const req = new Request('http://x/', { method: 'POST', body: form });
    const res = await s.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chat.chatId}/attachments`,
      headers: { ...s.alice.headers, 'content-type': req.headers.get('content-type') ?? '' },
      payload: Buffer.from(await req.arrayBuffer()),
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 404 when the stored object is gone', async () => {
    const chat = await createChat(s.alice);
    const att = AttachmentSchema.parse(
      (await upload(s.alice, chat.chatId, 'x.txt', 'text/plain', 'x')).json(),
    );
    const [row] = await s.t.ctx.db.select().from(attachments).where(eq(attachments.id, att.attachmentId));
    await rm(path.join(s.t.dataDir, 'storage', 'chats', ...row!.storageKey.split('/')));
    const res = await call('GET', att.url, s.alice);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'NOT_FOUND', message: 'File not found' });
    const missing = await call(
      'GET',
      `/api/v1/chats/${chat.chatId}/attachments/${crypto.randomUUID()}`,
      s.alice,
    );
    expect(missing.statusCode).toBe(404);
  });

  it('an unsent upload can be removed; one a message uses cannot', async () => {
    const chat = await createChat(s.alice);
    const a = AttachmentSchema.parse((await upload(s.alice, chat.chatId, 'a.txt', 'text/plain', 'a')).json());
    const b = AttachmentSchema.parse((await upload(s.alice, chat.chatId, 'b.txt', 'text/plain', 'b')).json());
    await appendUserMessage(s.t.ctx, await callerOf(s.alice), chat.chatId, {
      content: 'veja',
      attachmentIds: [b.attachmentId],
    });
    expect((await call('DELETE', a.url, s.alice)).statusCode).toBe(204);
    expect((await call('GET', a.url, s.alice)).statusCode).toBe(404);
    expect((await call('DELETE', b.url, s.alice)).statusCode).toBe(409);
    const msgs = await call('GET', `/api/v1/chats/${chat.chatId}/messages`, s.alice);
    expect(z.array(MessageSchema).parse(msgs.json())[0]!.attachments).toEqual([b]);
  });
});

describe('storage quota', () => {
  let q: TestApp;
  afterAll(async () => {
    await q?.close();
  });

  it('answers 402 QUOTA_EXCEEDED once the domain’s files would pass STORAGE_QUOTA_BYTES', async () => {
    q = await buildTestApp({ STORAGE_QUOTA_BYTES: '100' });
    const d = await makeDomain(q.ctx);
    const u1 = await makeUser(q.ctx, { domain: d });
    const u2 = await makeUser(q.ctx, { domain: d });
    const other = await makeUser(q.ctx);
    const post = async (who: TestUser, size: number) => {
      const created = await q.app.inject({
        method: 'POST',
        url: '/api/v1/chats',
        headers: who.headers,
        payload: {},
      });
      const chatId = (created.json() as Chat).chatId;
      const body = await multipartFile('f.txt', 'text/plain', 'x'.repeat(size));
      return q.app.inject({
        method: 'POST',
        url: `/api/v1/chats/${chatId}/attachments`,
        headers: { ...who.headers, ...body.headers },
        payload: body.payload,
      });
    };
    expect((await post(u1, 60)).statusCode).toBe(201);
    const over = await post(u2, 41);
    expect(over.statusCode).toBe(402);
    expect(errorOf(over).code).toBe('QUOTA_EXCEEDED');
    expect((await post(u2, 40)).statusCode).toBe(201);
    // Full now: refused before the body is even read.
    expect((await post(u1, 1)).statusCode).toBe(402);
    // The quota is per domain.
    expect((await post(other, 90)).statusCode).toBe(201);
    const stored = await q.ctx.db.select().from(attachments).where(eq(attachments.domainId, d.domain.id));
    expect(stored.reduce((n, a) => n + a.size, 0)).toBe(100);
  });
});

describe('santitos in chats', () => {
  it('a chat may name a santito the caller can use, nothing else', async () => {
    const premium = await makeDomain(s.t.ctx, { premium: true });
    const p = await makeUser(s.t.ctx, { domain: premium, role: 'Editor' });
    const mine = await makeSantito(s.t.ctx, p);
    const foreign = await makeSantito(s.t.ctx, s.stranger);
    const ok = await call('POST', '/api/v1/chats', p, { agentId: mine.id });
    expect(ok.statusCode).toBe(201);
    expect(ChatSchema.parse(ok.json()).agentId).toBe(mine.id);
    for (const agentId of [foreign.id, 'nope']) {
      const res = await call('POST', '/api/v1/chats', p, { agentId });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).details).toEqual([
        { path: 'agentId', message: 'No such santito available to you' },
      ]);
    }
    // alice's domain is not premium: santitos do not exist for her.
    const own = await makeSantito(s.t.ctx, s.colleague);
    expect((await call('POST', '/api/v1/chats', s.alice, { agentId: own.id })).statusCode).toBe(400);
  });
});

describe('isolation', () => {
  it('another user of the domain and a user of another domain get 404 everywhere; nothing changes', async () => {
    const { chat, messages: rows } = await makeChat(s.t.ctx, s.alice, {
      title: 'Segredo',
      messages: ['q', 'a'],
    });
    const att = AttachmentSchema.parse(
      (await upload(s.alice, chat.id, 's.txt', 'text/plain', 'segredo')).json(),
    );
    const before = {
      chat: await chatRow(chat.id),
      messages: await s.t.ctx.db.select().from(messages).where(eq(messages.chatId, chat.id)),
      files: await s.t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.id)),
    };
    const base = `/api/v1/chats/${chat.id}`;
    const calls: Array<[Method, string, unknown?]> = [
      ['GET', base],
      ['PUT', base, { title: 'hacked', pinned: true }],
      ['DELETE', base],
      ['POST', `${base}/restore`],
      ['GET', `${base}/messages`],
      ['GET', `${base}/messages?before=${rows[1]!.id}`],
      ['GET', `${base}/export?format=md`],
      ['GET', `${base}/export?format=json`],
      ['GET', `${base}/export?format=md&leaf=${rows[1]!.id}`],
      ['GET', att.url],
      ['DELETE', att.url],
    ];
    for (const who of [s.colleague, s.stranger]) {
      for (const [method, url, body] of calls) {
        const res = await call(method, url, who, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(errorOf(res).code).toBe('NOT_FOUND');
      }
      const up = await upload(who, chat.id, 'x.txt', 'text/plain', 'x');
      expect(up.statusCode).toBe(404);
      const list = await call('GET', '/api/v1/chats?q=segredo', who);
      expect(list.json()).toEqual([]);
    }
    // The service the websocket uses keeps the same scope.
    const service = s.t.ctx.services.chats;
    for (const who of [s.colleague, s.stranger]) {
      const caller = await callerOf(who);
      await expect(service.getChatForCaller(caller, chat.id)).rejects.toMatchObject({ status: 404 });
      await expect(appendUserMessage(s.t.ctx, caller, chat.id, { content: 'x' })).rejects.toMatchObject({
        status: 404,
      });
      await expect(service.getMessageForCaller(caller, chat.id, rows[0]!.id)).rejects.toMatchObject({
        status: 404,
      });
      expect(await service.getAttachmentsForModel(caller, [att.attachmentId])).toEqual([]);
    }
    expect(await chatRow(chat.id)).toEqual(before.chat);
    expect(await s.t.ctx.db.select().from(messages).where(eq(messages.chatId, chat.id))).toEqual(
      before.messages,
    );
    expect(await s.t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.id))).toEqual(
      before.files,
    );
    expect((await call('GET', att.url, s.alice)).body).toBe('segredo');
  });

  it('a user cannot attach another user’s upload to a message', async () => {
    const theirs = await createChat(s.colleague);
    const att = AttachmentSchema.parse(
      (await upload(s.colleague, theirs.chatId, 'c.txt', 'text/plain', 'c')).json(),
    );
    const mine = await createChat(s.alice);
    await expect(
      appendUserMessage(s.t.ctx, await callerOf(s.alice), mine.chatId, {
        content: 'x',
        attachmentIds: [att.attachmentId],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
