import {
  AttachmentSchema,
  type Chat,
  ChatSchema,
  ErrorBodySchema,
  MessageSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { attachments, chats } from '../../db/schema/index.ts';
import { appendUserMessage } from '../../test/chats.ts';
import { useChatsSuite } from '../../test/chats-suite.ts';
import { makeChat, makeUser, type TestUser } from '../../test/factories.ts';

const { s, call, upload, errorOf, createChat, chatRow, callerOf } = useChatsSuite();

describe('chats CRUD', () => {
  it('creates, reads, renames, pins and sets params of a chat', async () => {
    const chat = await createChat(s.alice, { title: '  Plano de férias  ' });
    expect(chat).toMatchObject({ title: 'Plano de férias', agentId: null, pinned: false, params: {} });

    const got = await call('GET', `/api/v1/chats/${chat.chatId}`, s.alice);
    expect(got.statusCode).toBe(200);
    expect(ChatSchema.strict().parse(got.json())).toEqual(chat);

    const put = await call('PUT', `/api/v1/chats/${chat.chatId}`, s.alice, {
      title: 'Férias 2025',
      pinned: true,
      params: { model: 'openai:gpt-4.1-mini', temperature: 0.3, maxTokens: 800, instructions: 'Seja breve' },
    });
    expect(put.statusCode).toBe(200);
    const updated = ChatSchema.parse(put.json());
    expect(updated).toMatchObject({
      title: 'Férias 2025',
      pinned: true,
      params: { model: 'openai:gpt-4.1-mini', temperature: 0.3, maxTokens: 800, instructions: 'Seja breve' },
    });
    // Renaming or pinning is not activity: the list's order by activity stays.
    expect(updated.updatedAt).toBe(chat.updatedAt);

    const cleared = await call('PUT', `/api/v1/chats/${chat.chatId}`, s.alice, { params: null });
    expect(ChatSchema.parse(cleared.json()).params).toEqual({});
  });

  it('an empty POST body makes an untitled chat', async () => {
    const res = await s.t.app.inject({ method: 'POST', url: '/api/v1/chats', headers: s.alice.headers });
    expect(res.statusCode).toBe(201);
    expect(ChatSchema.parse(res.json()).title).toBe('');
  });

  it('bad input gets 400 in the error shape and changes nothing', async () => {
    const chat = await createChat(s.alice, { title: 'Intacto' });
    const before = await chatRow(chat.chatId);
    const bad: unknown[] = [
      { title: 'x', owner: 'someone@else.com' },
      {},
      { title: 'y'.repeat(201) },
      { pinned: 'yes' },
      { params: { temperature: 5 } },
      { params: { model: 'x', extra: 1 } },
      { params: { maxTokens: 1.5 } },
    ];
    for (const body of bad) {
      const res = await call('PUT', `/api/v1/chats/${chat.chatId}`, s.alice, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    const notJson = await s.t.app.inject({
      method: 'PUT',
      url: `/api/v1/chats/${chat.chatId}`,
      headers: { ...s.alice.headers, 'content-type': 'application/json' },
      payload: '{"title":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(await chatRow(chat.chatId)).toEqual(before);

    for (const body of [{ title: 'a', userId: 'x' }, { agentId: 42 }]) {
      const res = await call('POST', '/api/v1/chats', s.alice, body);
      expect(res.statusCode).toBe(400);
    }
  });

  it('unauthenticated calls get 401', async () => {
    const chat = await createChat(s.alice);
    for (const [method, url] of [
      ['GET', '/api/v1/chats'],
      ['POST', '/api/v1/chats'],
      ['GET', `/api/v1/chats/${chat.chatId}`],
      ['GET', `/api/v1/chats/${chat.chatId}/messages`],
    ] as const) {
      const res = await call(method, url);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).code).toBe('UNAUTHENTICATED');
    }
  });

  it('a malformed or unknown chat id is 404 Chat not found', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      const res = await call('GET', `/api/v1/chats/${id}`, s.alice);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res)).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Chat not found' });
    }
  });
});

describe('delete and restore', () => {
  it('deleting hides the chat at once; restore within the window brings it back whole', async () => {
    const { chat, messages: msgs } = await makeChat(s.t.ctx, s.alice, {
      title: 'Apagar',
      messages: ['oi', 'olá'],
    });
    expect((await call('DELETE', `/api/v1/chats/${chat.id}`, s.alice)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/chats/${chat.id}`, s.alice)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/chats/${chat.id}/messages`, s.alice)).statusCode).toBe(404);
    const list = await call('GET', '/api/v1/chats?limit=200', s.alice);
    expect((list.json() as Chat[]).map((c) => c.chatId)).not.toContain(chat.id);
    expect((await call('DELETE', `/api/v1/chats/${chat.id}`, s.alice)).statusCode).toBe(404);

    const restored = await call('POST', `/api/v1/chats/${chat.id}/restore`, s.alice);
    expect(restored.statusCode).toBe(200);
    expect(ChatSchema.parse(restored.json()).title).toBe('Apagar');
    const back = await call('GET', `/api/v1/chats/${chat.id}/messages`, s.alice);
    expect((back.json() as unknown[]).length).toBe(msgs.length);
    // Restoring a live chat is not a thing.
    expect((await call('POST', `/api/v1/chats/${chat.id}/restore`, s.alice)).statusCode).toBe(404);
  });

  it('after the window a deleted chat cannot be restored and is purged with its files', async () => {
    const chat = await createChat(s.alice, { title: 'Velho' });
    const up = await upload(s.alice, chat.chatId, 'a.txt', 'text/plain', 'conteúdo');
    expect(up.statusCode).toBe(201);
    const [file] = await s.t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.chatId));
    expect((await call('DELETE', `/api/v1/chats/${chat.chatId}`, s.alice)).statusCode).toBe(204);
    await s.t.ctx.db
      .update(chats)
      .set({ deletedAt: new Date(Date.now() - 60_000) })
      .where(eq(chats.id, chat.chatId));
    expect((await call('POST', `/api/v1/chats/${chat.chatId}/restore`, s.alice)).statusCode).toBe(404);

    const purged = await s.t.ctx.services.chats.purgeDeleted();
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await chatRow(chat.chatId)).toBeUndefined();
    expect(await s.t.ctx.services.storage.bucket('chats').stat(file!.storageKey)).toBeUndefined();
  });
});

describe('a chat made for a new message’s files (a draft)', () => {
  const listed = async (who: TestUser) => {
    const res = await call('GET', '/api/v1/chats?limit=200', who);
    expect(res.statusCode).toBe(200);
    return { ids: (res.json() as Chat[]).map((c) => c.chatId), total: res.headers['x-total-count'] };
  };

  it('is out of the lists, and their count, until its first message is stored', async () => {
    const owner = await makeUser(s.t.ctx);
    const draft = await createChat(owner);
    const ids: string[] = [];
    for (const n of ['um', 'dois', 'tres']) {
      const up = await upload(owner, draft.chatId, `${n}.txt`, 'text/plain', `${n}\n`);
      expect(up.statusCode).toBe(201);
      ids.push(AttachmentSchema.parse(up.json()).attachmentId);
    }
    // Listed, it was an empty "untitled chat" in the sidebar and on the home page.
    expect(await listed(owner)).toEqual({ ids: [], total: '0' });
    expect((await call('GET', `/api/v1/chats/${draft.chatId}`, owner)).statusCode).toBe(200);

    await appendUserMessage(s.t.ctx, await callerOf(owner), draft.chatId, {
      content: 'Três arquivos',
      attachmentIds: ids,
    });
    expect(await listed(owner)).toEqual({ ids: [draft.chatId], total: '1' });
    const sent = z
      .array(MessageSchema)
      .parse((await call('GET', `/api/v1/chats/${draft.chatId}/messages`, owner)).json());
    expect(sent.map((m) => m.attachments?.map((a) => a.name))).toEqual([['um.txt', 'dois.txt', 'tres.txt']]);
  });

  it('a chat made with a title is listed at once', async () => {
    const owner = await makeUser(s.t.ctx);
    const chat = await createChat(owner, { title: 'Só o título' });
    expect((await listed(owner)).ids).toEqual([chat.chatId]);
  });

  it('is purged with its files a day after it was made, unless a message made it a chat', async () => {
    const owner = await makeUser(s.t.ctx);
    const old = new Date(Date.now() - 25 * 60 * 60_000);
    const abandoned = await createChat(owner);
    expect((await upload(owner, abandoned.chatId, 'a.txt', 'text/plain', 'esquecido')).statusCode).toBe(201);
    const [file] = await s.t.ctx.db
      .select()
      .from(attachments)
      .where(eq(attachments.chatId, abandoned.chatId));
    const recent = await createChat(owner);
    const titled = await createChat(owner, { title: 'Guardado' });
    const sent = await createChat(owner);
    await appendUserMessage(s.t.ctx, await callerOf(owner), sent.chatId, { content: 'enviada' });
    for (const id of [abandoned.chatId, titled.chatId, sent.chatId])
      await s.t.ctx.db.update(chats).set({ createdAt: old }).where(eq(chats.id, id));

    expect(await s.t.ctx.services.chats.purgeDrafts()).toBeGreaterThanOrEqual(1);
    expect(await chatRow(abandoned.chatId)).toBeUndefined();
    expect(await s.t.ctx.services.storage.bucket('chats').stat(file!.storageKey)).toBeUndefined();
    for (const kept of [recent.chatId, titled.chatId, sent.chatId]) expect(await chatRow(kept)).toBeDefined();
  });
});

describe('GET /api/v1/chats: order and paging', () => {
  it('lists pinned chats first, then newest first, page by page with a cursor', async () => {
    const owner = await makeUser(s.t.ctx);
    const base = Date.now() - 1_000_000;
    const made: Array<{ id: string; pinned: boolean; at: number }> = [];
    for (let i = 0; i < 7; i++) {
      const pinned = i === 1 || i === 4;
      // Two chats share one instant: the id breaks the tie.
      const at = base + (i === 3 ? 2 : i) * 1000;
      const { chat } = await makeChat(s.t.ctx, owner, { title: `c${i}`, pinned, updatedAt: new Date(at) });
      made.push({ id: chat.id, pinned, at });
    }
    const expected = [...made]
      .sort((x, y) => Number(y.pinned) - Number(x.pinned) || y.at - x.at || (y.id > x.id ? 1 : -1))
      .map((c) => c.id);

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await call(
        'GET',
        `/api/v1/chats?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        owner,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('7');
      const items = z.array(ChatSchema.strict()).parse(res.json());
      seen.push(...items.map((c) => c.chatId));
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(expected);
  });

  it('new activity moves a chat to the top (of the unpinned ones)', async () => {
    const owner = await makeUser(s.t.ctx);
    const { chat: old } = await makeChat(s.t.ctx, owner, { title: 'antigo' });
    await makeChat(s.t.ctx, owner, { title: 'novo' });
    await appendUserMessage(s.t.ctx, await callerOf(owner), old.id, { content: 'de novo' });
    const res = await call('GET', '/api/v1/chats', owner);
    expect((res.json() as Chat[])[0]!.chatId).toBe(old.id);
  });

  it('refuses a bad cursor or limit with 400', async () => {
    for (const q of ['cursor=garbage', 'limit=0', 'limit=201', 'limit=abc']) {
      const res = await call('GET', `/api/v1/chats?${q}`, s.alice);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('refuses a tampered cursor with 400, even one naming a real chat', async () => {
    const owner = await makeUser(s.t.ctx);
    const { chat: older } = await makeChat(s.t.ctx, owner, { title: 'um' });
    await makeChat(s.t.ctx, owner, { title: 'dois' });
    const first = await call('GET', '/api/v1/chats?limit=1', owner);
    const cursor = String(first.headers['x-next-cursor']);
    const [payload, mac] = cursor.split('.');
    const key = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as string[];
    for (const forged of [
      [key[0], 'true', key[2], key[3]],
      [key[0], key[1], 'not a date', key[3]],
      [key[0], key[1], key[2], older.id],
    ]) {
      const tampered = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
      const res = await call('GET', `/api/v1/chats?limit=1&cursor=${encodeURIComponent(tampered)}`, owner);
      expect(res.statusCode, JSON.stringify(forged)).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.code).toBe('BAD_REQUEST');
    }
    const next = await call('GET', `/api/v1/chats?limit=1&cursor=${encodeURIComponent(cursor)}`, owner);
    expect(next.statusCode).toBe(200);
  });

  it('ignores the web client’s domain/user hints', async () => {
    const res = await call(
      'GET',
      `/api/v1/chats?domain=${s.stranger.user.domainId}&user=${s.stranger.user.id}&email=${s.stranger.user.id}`,
      s.alice,
    );
    expect(res.statusCode).toBe(200);
    for (const c of res.json() as Chat[]) expect((await chatRow(c.chatId))?.userId).toBe(s.alice.user.id);
  });
});
