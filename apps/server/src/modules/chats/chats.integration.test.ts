import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  AttachmentSchema,
  type Chat,
  ChatExportSchema,
  ChatSchema,
  ErrorBodySchema,
  MessageSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { attachments, chats, messages } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { appendUserMessage, multipartFile, postFile, TINY_PNG } from '../../test/chats.ts';
import { makeChat, makeDomain, makeSantito, makeUser, type TestUser } from '../../test/factories.ts';
import { INTERRUPTED_MESSAGE } from '../agents/model-calls.ts';
import { agentsStore } from '../agents/store.ts';

const UPLOAD_MAX = 64 * 1024;

let t: TestApp;
let alice: TestUser;
let colleague: TestUser;
let stranger: TestUser;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(method: Method, url: string, who?: TestUser, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
const upload = (who: TestUser, chatId: string, name: string, type: string, data: Buffer | string) =>
  postFile(t.app, `/api/v1/chats/${chatId}/attachments`, who, { name, type, data });
function errorOf(res: LightMyRequestResponse) {
  return ErrorBodySchema.parse(res.json()).error;
}
async function createChat(who: TestUser, body: object = {}): Promise<Chat> {
  const res = await call('POST', '/api/v1/chats', who, body);
  expect(res.statusCode).toBe(201);
  return ChatSchema.strict().parse(res.json());
}
/** Streamed text of an answer, written as the agents' flush writes it (appended while still streaming). */
async function flush(messageId: string, delta: string) {
  await agentsStore(t.ctx.db).saveStreaming([{ id: messageId, at: 0, text: delta }]);
}
async function chatRow(id: string) {
  const [row] = await t.ctx.db.select().from(chats).where(eq(chats.id, id));
  return row;
}

beforeAll(async () => {
  t = await buildTestApp({ UPLOAD_MAX_BYTES: String(UPLOAD_MAX) });
  const a = await makeDomain(t.ctx);
  alice = await makeUser(t.ctx, { domain: a });
  colleague = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  stranger = await makeUser(t.ctx, { role: 'SuperAdmin' });
});

afterAll(async () => {
  await t?.close();
});

describe('chats CRUD', () => {
  it('creates, reads, renames, pins and sets params of a chat', async () => {
    const chat = await createChat(alice, { title: '  Plano de férias  ' });
    expect(chat).toMatchObject({ title: 'Plano de férias', agentId: null, pinned: false, params: {} });

    const got = await call('GET', `/api/v1/chats/${chat.chatId}`, alice);
    expect(got.statusCode).toBe(200);
    expect(ChatSchema.strict().parse(got.json())).toEqual(chat);

    const put = await call('PUT', `/api/v1/chats/${chat.chatId}`, alice, {
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

    const cleared = await call('PUT', `/api/v1/chats/${chat.chatId}`, alice, { params: null });
    expect(ChatSchema.parse(cleared.json()).params).toEqual({});
  });

  it('an empty POST body makes an untitled chat', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/chats', headers: alice.headers });
    expect(res.statusCode).toBe(201);
    expect(ChatSchema.parse(res.json()).title).toBe('');
  });

  it('bad input gets 400 in the error shape and changes nothing', async () => {
    const chat = await createChat(alice, { title: 'Intacto' });
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
      const res = await call('PUT', `/api/v1/chats/${chat.chatId}`, alice, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    const notJson = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/chats/${chat.chatId}`,
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: '{"title":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(await chatRow(chat.chatId)).toEqual(before);

    for (const body of [{ title: 'a', userId: 'x' }, { agentId: 42 }]) {
      const res = await call('POST', '/api/v1/chats', alice, body);
      expect(res.statusCode).toBe(400);
    }
  });

  it('unauthenticated calls get 401', async () => {
    const chat = await createChat(alice);
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
      const res = await call('GET', `/api/v1/chats/${id}`, alice);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res)).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Chat not found' });
    }
  });
});

describe('delete and restore', () => {
  it('deleting hides the chat at once; restore within the window brings it back whole', async () => {
    const { chat, messages: msgs } = await makeChat(t.ctx, alice, {
      title: 'Apagar',
      messages: ['oi', 'olá'],
    });
    expect((await call('DELETE', `/api/v1/chats/${chat.id}`, alice)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/chats/${chat.id}`, alice)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/chats/${chat.id}/messages`, alice)).statusCode).toBe(404);
    const list = await call('GET', '/api/v1/chats?limit=200', alice);
    expect((list.json() as Chat[]).map((c) => c.chatId)).not.toContain(chat.id);
    expect((await call('DELETE', `/api/v1/chats/${chat.id}`, alice)).statusCode).toBe(404);

    const restored = await call('POST', `/api/v1/chats/${chat.id}/restore`, alice);
    expect(restored.statusCode).toBe(200);
    expect(ChatSchema.parse(restored.json()).title).toBe('Apagar');
    const back = await call('GET', `/api/v1/chats/${chat.id}/messages`, alice);
    expect((back.json() as unknown[]).length).toBe(msgs.length);
    // Restoring a live chat is not a thing.
    expect((await call('POST', `/api/v1/chats/${chat.id}/restore`, alice)).statusCode).toBe(404);
  });

  it('after the window a deleted chat cannot be restored and is purged with its files', async () => {
    const chat = await createChat(alice, { title: 'Velho' });
    const up = await upload(alice, chat.chatId, 'a.txt', 'text/plain', 'conteúdo');
    expect(up.statusCode).toBe(201);
    const [file] = await t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.chatId));
    expect((await call('DELETE', `/api/v1/chats/${chat.chatId}`, alice)).statusCode).toBe(204);
    await t.ctx.db
      .update(chats)
      .set({ deletedAt: new Date(Date.now() - 60_000) })
      .where(eq(chats.id, chat.chatId));
    expect((await call('POST', `/api/v1/chats/${chat.chatId}/restore`, alice)).statusCode).toBe(404);

    const purged = await t.ctx.services.chats.purgeDeleted();
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await chatRow(chat.chatId)).toBeUndefined();
    expect(await t.ctx.services.storage.bucket('chats').stat(file!.storageKey)).toBeUndefined();
  });
});

describe('a chat made for a new message’s files (a draft)', () => {
  const listed = async (who: TestUser) => {
    const res = await call('GET', '/api/v1/chats?limit=200', who);
    expect(res.statusCode).toBe(200);
    return { ids: (res.json() as Chat[]).map((c) => c.chatId), total: res.headers['x-total-count'] };
  };

  it('is out of the lists, and their count, until its first message is stored', async () => {
    const owner = await makeUser(t.ctx);
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

    await appendUserMessage(t.ctx, await callerOf(owner), draft.chatId, {
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
    const owner = await makeUser(t.ctx);
    const chat = await createChat(owner, { title: 'Só o título' });
    expect((await listed(owner)).ids).toEqual([chat.chatId]);
  });

  it('is purged with its files a day after it was made, unless a message made it a chat', async () => {
    const owner = await makeUser(t.ctx);
    const old = new Date(Date.now() - 25 * 60 * 60_000);
    const abandoned = await createChat(owner);
    expect((await upload(owner, abandoned.chatId, 'a.txt', 'text/plain', 'esquecido')).statusCode).toBe(201);
    const [file] = await t.ctx.db.select().from(attachments).where(eq(attachments.chatId, abandoned.chatId));
    const recent = await createChat(owner);
    const titled = await createChat(owner, { title: 'Guardado' });
    const sent = await createChat(owner);
    await appendUserMessage(t.ctx, await callerOf(owner), sent.chatId, { content: 'enviada' });
    for (const id of [abandoned.chatId, titled.chatId, sent.chatId])
      await t.ctx.db.update(chats).set({ createdAt: old }).where(eq(chats.id, id));

    expect(await t.ctx.services.chats.purgeDrafts()).toBeGreaterThanOrEqual(1);
    expect(await chatRow(abandoned.chatId)).toBeUndefined();
    expect(await t.ctx.services.storage.bucket('chats').stat(file!.storageKey)).toBeUndefined();
    for (const kept of [recent.chatId, titled.chatId, sent.chatId]) expect(await chatRow(kept)).toBeDefined();
  });
});

describe('GET /api/v1/chats: order and paging', () => {
  it('lists pinned chats first, then newest first, page by page with a cursor', async () => {
    const owner = await makeUser(t.ctx);
    const base = Date.now() - 1_000_000;
    const made: Array<{ id: string; pinned: boolean; at: number }> = [];
    for (let i = 0; i < 7; i++) {
      const pinned = i === 1 || i === 4;
      // Two chats share one instant: the id breaks the tie.
      const at = base + (i === 3 ? 2 : i) * 1000;
      const { chat } = await makeChat(t.ctx, owner, { title: `c${i}`, pinned, updatedAt: new Date(at) });
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
    const owner = await makeUser(t.ctx);
    const { chat: old } = await makeChat(t.ctx, owner, { title: 'antigo' });
    await makeChat(t.ctx, owner, { title: 'novo' });
    await appendUserMessage(t.ctx, await callerOf(owner), old.id, { content: 'de novo' });
    const res = await call('GET', '/api/v1/chats', owner);
    expect((res.json() as Chat[])[0]!.chatId).toBe(old.id);
  });

  it('refuses a bad cursor or limit with 400', async () => {
    for (const q of ['cursor=garbage', 'limit=0', 'limit=201', 'limit=abc']) {
      const res = await call('GET', `/api/v1/chats?${q}`, alice);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('refuses a tampered cursor with 400, even one naming a real chat', async () => {
    const owner = await makeUser(t.ctx);
    const { chat: older } = await makeChat(t.ctx, owner, { title: 'um' });
    await makeChat(t.ctx, owner, { title: 'dois' });
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
      `/api/v1/chats?domain=${stranger.user.domainId}&user=${stranger.user.id}&email=${stranger.user.id}`,
      alice,
    );
    expect(res.statusCode).toBe(200);
    for (const c of res.json() as Chat[]) expect((await chatRow(c.chatId))?.userId).toBe(alice.user.id);
  });
});

describe('search', () => {
  let owner: TestUser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    owner = await makeUser(t.ctx);
    ids.report = (await makeChat(t.ctx, owner, { title: 'Relatório de Vendas' })).chat.id;
    ids.heart = (
      await makeChat(t.ctx, owner, {
        title: 'Saúde',
        messages: ['Como funciona o CORAÇÃO humano?', 'Ele bombeia…'],
      })
    ).chat.id;
    ids.code = (
      await makeChat(t.ctx, owner, {
        title: 'Código',
        messages: ['Explique', 'Use a função `reduce` do JavaScript para somar'],
      })
    ).chat.id;
    ids.none = (await makeChat(t.ctx, owner, { title: 'Outra coisa', messages: ['nada a ver'] })).chat.id;
    // Somebody else's chat with the same words never shows up.
    await makeChat(t.ctx, alice, { title: 'Relatório de vendas da Alice', messages: ['coração'] });
  });

  async function search(q: string): Promise<string[]> {
    const res = await call('GET', `/api/v1/chats?q=${encodeURIComponent(q)}`, owner);
    expect(res.statusCode).toBe(200);
    const items = z.array(ChatSchema).parse(res.json());
    expect(res.headers['x-total-count']).toBe(String(items.length));
    return items.map((c) => c.chatId).sort();
  }

  it('finds titles ignoring case and accents, by word prefix', async () => {
    expect(await search('relatorio')).toEqual([ids.report]);
    expect(await search('RELATÓRIO')).toEqual([ids.report]);
    expect(await search('vend')).toEqual([ids.report]);
    expect(await search('relat vendas')).toEqual([ids.report]);
    expect(await search('saude')).toEqual([ids.heart]);
  });

  it('finds message contents ignoring case and accents', async () => {
    expect(await search('coracao')).toEqual([ids.heart]);
    expect(await search('Coração')).toEqual([ids.heart]);
    expect(await search('funçao javascript')).toEqual([ids.code]);
    expect(await search('reduce')).toEqual([ids.code]);
  });

  it('every word must match; nothing matches nothing', async () => {
    expect(await search('coração vendas')).toEqual([]);
    expect(await search('zebra')).toEqual([]);
    expect(await search('!!! ???')).toEqual([]);
    expect(await search("o'brien \\ & | ! :*")).toEqual([]);
  });

  it('finds an answer once it has finished streaming, not while it streams', async () => {
    const { chat, messages: rows } = await makeChat(t.ctx, owner, { title: 'Em andamento', messages: ['?'] });
    const service = t.ctx.services.chats;
    const answer = await service.createAssistantMessage(chat.id, rows[0]?.id ?? null, null);
    await flush(answer.messageId, 'Um ornitorrinco escreve');
    expect(await search('ornitorrinco')).toEqual([]);
    await service.finishAssistantMessage(answer.messageId, { status: 'complete' });
    expect(await search('ornitorrinco')).toEqual([chat.id]);
  });

  it('does not find deleted chats', async () => {
    const { chat } = await makeChat(t.ctx, owner, { title: 'Efêmero' });
    expect(await search('efemero')).toEqual([chat.id]);
    await call('DELETE', `/api/v1/chats/${chat.id}`, owner);
    expect(await search('efemero')).toEqual([]);
  });
});

describe('GET /api/v1/chats/{chatId}/messages', () => {
  it('pages backwards, each page oldest → newest', async () => {
    const texts = ['m0', 'm1', 'm2', 'm3', 'm4'];
    const { chat, messages: rows } = await makeChat(t.ctx, alice, { messages: texts });
    const page1 = await call('GET', `/api/v1/chats/${chat.id}/messages?limit=2`, alice);
    expect(page1.statusCode).toBe(200);
    const p1 = z.array(MessageSchema.strict()).parse(page1.json());
    expect(p1.map((m) => m.content)).toEqual(['m3', 'm4']);
    expect(p1[0]).toMatchObject({
      role: 'assistant',
      status: 'complete',
      parentId: rows[2]!.id,
      chatId: chat.id,
    });
    const before = page1.headers['x-next-cursor'] as string;
    expect(before).toBe(rows[3]!.id);

    const page2 = await call('GET', `/api/v1/chats/${chat.id}/messages?limit=2&before=${before}`, alice);
    expect((page2.json() as Array<{ content: string }>).map((m) => m.content)).toEqual(['m1', 'm2']);
    const page3 = await call(
      'GET',
      `/api/v1/chats/${chat.id}/messages?limit=2&before=${page2.headers['x-next-cursor']}`,
      alice,
    );
    expect((page3.json() as Array<{ content: string }>).map((m) => m.content)).toEqual(['m0']);
    expect(page3.headers['x-next-cursor']).toBeUndefined();
  });

  it('refuses a `before` that is not a message of this chat', async () => {
    const { chat } = await makeChat(t.ctx, alice, { messages: ['x'] });
    const { messages: others } = await makeChat(t.ctx, alice, { messages: ['y'] });
    for (const before of ['abc', others[0]!.id]) {
      const res = await call('GET', `/api/v1/chats/${chat.id}/messages?before=${before}`, alice);
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('export', () => {
  it('exports the current branch as Markdown, as a download named after the title', async () => {
    const service = t.ctx.services.chats;
    const chat = await createChat(alice, { title: 'Análise: Q3/2025 "final"' });
    const q1 = await appendUserMessage(t.ctx, alice.user && (await callerOf(alice)), chat.chatId, {
      content: 'Primeira pergunta',
    });
    const a1 = await service.createAssistantMessage(chat.chatId, q1.messageId, 'openai:gpt-4.1-mini');
    await service.finishAssistantMessage(a1.messageId, { status: 'complete', content: 'Resposta **um**' });
    // An edit of the question makes a new branch; the old one is kept but not exported as Markdown.
    const q2 = await appendUserMessage(t.ctx, await callerOf(alice), chat.chatId, {
      content: 'Pergunta editada',
      parentId: null,
    });
    const a2 = await service.createAssistantMessage(chat.chatId, q2.messageId, null);
    await service.finishAssistantMessage(a2.messageId, { status: 'stopped', content: 'Resposta parcial' });

    const res = await call('GET', `/api/v1/chats/${chat.chatId}/export?format=md`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Analise Q3 2025 final.md"; filename*=UTF-8''${encodeURIComponent('Análise Q3 2025 final.md')}`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('# Análise: Q3/2025 "final"');
    expect(res.body).toContain('Pergunta editada');
    expect(res.body).toContain('Resposta parcial');
    expect(res.body).toContain('_(interrompida)_');
    expect(res.body).not.toContain('Primeira pergunta');

    const json = await call('GET', `/api/v1/chats/${chat.chatId}/export?format=json`, alice);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toContain("filename*=UTF-8''");
    expect(json.headers['content-disposition']).toContain('.json');
    const body = ChatExportSchema.parse(json.json());
    expect(body.chat.chatId).toBe(chat.chatId);
    expect(body.messages.map((m) => m.content)).toEqual([
      'Primeira pergunta',
      'Resposta **um**',
      'Pergunta editada',
      'Resposta parcial',
    ]);
    expect(body.messages[1]).toMatchObject({ model: 'openai:gpt-4.1-mini', parentId: q1.messageId });
    expect(body.leafId).toBe(a2.messageId);
  });

  it('exports the branch on screen, given its leaf, not the one of the newest message', async () => {
    const service = t.ctx.services.chats;
    const caller = await callerOf(alice);
    const chat = await service.createChat(caller, { title: 'Ramos' });
    const turn = async (content: string, parentId?: string | null) => {
      const q = await appendUserMessage(t.ctx, caller, chat.chatId, {
        content,
        ...(parentId === undefined ? {} : { parentId }),
      });
      const a = await service.createAssistantMessage(chat.chatId, q.messageId, null);
      await service.finishAssistantMessage(a.messageId, { status: 'complete', content: `Re: ${content}` });
      return { q, a };
    };
    const first = await turn('Pergunta original');
    // Edit and resend (2/2), back to version 1/2 and go on there, then show version 2/2 again.
    const edited = await turn('Pergunta editada', null);
    const later = await turn('Continuação da original', first.a.messageId);
    const exportOf = (query: string) => call('GET', `/api/v1/chats/${chat.chatId}/export?${query}`, alice);

    const shown = await exportOf(`format=md&leaf=${edited.a.messageId}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Pergunta editada');
    expect(shown.body).toContain('Re: Pergunta editada');
    expect(shown.body).not.toContain('Pergunta original');
    expect(shown.body).not.toContain('Continuação da original');
    // A leaf answered since the page was drawn goes on to its newest answer, as the web shows it.
    const fromQuestion = (await exportOf(`leaf=${edited.q.messageId}`)).body;
    expect(fromQuestion).toContain('Re: Pergunta editada');
    expect(fromQuestion).not.toContain('Pergunta original');

    // Without a leaf: the branch of the newest message, as before.
    const newest = (await exportOf('format=md')).body;
    expect(newest).toContain('Pergunta original');
    expect(newest).toContain('Continuação da original');
    expect(newest).not.toContain('Pergunta editada');

    // JSON keeps every message and says which branch was on screen.
    const json = ChatExportSchema.parse((await exportOf(`format=json&leaf=${edited.a.messageId}`)).json());
    expect(json.messages).toHaveLength(6);
    expect(json.leafId).toBe(edited.a.messageId);
    const jsonNewest = ChatExportSchema.parse((await exportOf('format=json')).json());
    expect(jsonNewest.leafId).toBe(later.a.messageId);
  });

  it('refuses a leaf that is not a message of this chat: 404, or 400 when not an id', async () => {
    const { chat } = await makeChat(t.ctx, alice, { messages: ['q', 'a'] });
    const { messages: mine } = await makeChat(t.ctx, alice, { messages: ['outra'] });
    const { messages: theirs } = await makeChat(t.ctx, stranger, { messages: ['de outro domínio'] });
    for (const format of ['md', 'json']) {
      for (const leaf of [mine[0]!.id, theirs[0]!.id, crypto.randomUUID()]) {
        const res = await call('GET', `/api/v1/chats/${chat.id}/export?format=${format}&leaf=${leaf}`, alice);
        expect(res.statusCode).toBe(404);
        expect(errorOf(res)).toMatchObject({ code: 'NOT_FOUND', message: 'Message not found' });
      }
      const bad = await call('GET', `/api/v1/chats/${chat.id}/export?format=${format}&leaf=abc`, alice);
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad).code).toBe('VALIDATION_FAILED');
    }
  });

  it('dates the Markdown in the reader’s time zone; a zone that is not one is refused (400)', async () => {
    const { chat } = await makeChat(t.ctx, alice, { messages: ['q', 'a'] });
    const inZone = await call('GET', `/api/v1/chats/${chat.id}/export?format=md&timeZone=Asia/Tokyo`, alice);
    expect(inZone.statusCode).toBe(200);
    expect(inZone.body).toMatch(/^_Exportado em .+ \(Asia\/Tokyo\)_$/m);
    expect(inZone.body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    for (const zone of ['Mars/Olympus', 'UTC+3', '%00']) {
      const bad = await call('GET', `/api/v1/chats/${chat.id}/export?format=md&timeZone=${zone}`, alice);
      expect(bad.statusCode).toBe(400);
      expect(errorOf(bad).code).toBe('VALIDATION_FAILED');
    }
  });

  it('labels the Markdown in the caller’s language: screen, then saved, then browser; pt-BR else', async () => {
    const service = t.ctx.services.chats;
    const speaker = await makeUser(t.ctx, { locale: 'en' });
    const exportAs = async (who: TestUser, query: string, acceptLanguage?: string) => {
      const caller = await callerOf(who);
      const chat = await service.createChat(caller, {});
      const q = await appendUserMessage(t.ctx, caller, chat.chatId, { content: 'Oi' });
      const a = await service.createAssistantMessage(chat.chatId, q.messageId, 'openai:gpt-4.1-mini');
      await service.finishAssistantMessage(a.messageId, { status: 'stopped', content: 'Olá' });
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/chats/${chat.chatId}/export?format=md${query}`,
        headers: { ...who.headers, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
      });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    const ptBR = [
      '# Conversa sem título',
      '_Exportado em ',
      '## Você',
      '## Assistente (gpt-4.1-mini) _(interrompida)_',
    ];
    const en = ['# Untitled chat', '_Exported ', '## You', '## Assistant (gpt-4.1-mini) _(stopped)_'];
    const es = [
      '# Conversación sin título',
      '_Exportado el ',
      '## Tú',
      '## Asistente (gpt-4.1-mini) _(detenida)_',
    ];
    const expectLabels = (body: string, labels: string[]) => {
      for (const label of labels) expect(body).toContain(label);
    };

    // alice saved no language.
    expectLabels(await exportAs(alice, ''), ptBR);
    expectLabels(await exportAs(alice, '&locale=en'), en);
    expectLabels(await exportAs(alice, '', 'en-US,en;q=0.9'), en);
    expectLabels(await exportAs(alice, '&locale=es', 'en-US'), es);
    // speaker saved English: it beats the browser, the screen's language beats it.
    expectLabels(await exportAs(speaker, '', 'pt-BR,pt;q=0.9'), en);
    const onPortugueseScreen = await exportAs(speaker, '&locale=pt-BR');
    expectLabels(onPortugueseScreen, ptBR);
    expect(onPortugueseScreen).not.toContain('## You');
    expect(
      (await call('GET', `/api/v1/chats/${crypto.randomUUID()}/export?locale=${'x'.repeat(36)}`, alice))
        .statusCode,
    ).toBe(400);
  });

  it('defaults to Markdown, names an untitled chat "chat" and refuses other formats', async () => {
    const chat = await createChat(alice);
    const res = await call('GET', `/api/v1/chats/${chat.chatId}/export`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="chat.md"; filename*=UTF-8''chat.md`,
    );
    expect((await call('GET', `/api/v1/chats/${chat.chatId}/export?format=pdf`, alice)).statusCode).toBe(400);
  });
});

describe('attachments', () => {
  it('uploads into the chats bucket under a generated key and downloads with safe headers', async () => {
    const chat = await createChat(alice);
    const res = await upload(alice, chat.chatId, '../../etc/foto de férias.png', 'image/png', TINY_PNG);
    expect(res.statusCode).toBe(201);
    const att = AttachmentSchema.strict().parse(res.json());
    expect(att).toMatchObject({ chatId: chat.chatId, name: 'foto de férias.png', contentType: 'image/png' });
    expect(att.size).toBe(TINY_PNG.length);
    const [row] = await t.ctx.db.select().from(attachments).where(eq(attachments.id, att.attachmentId));
    expect(row!.storageKey).not.toContain('férias');
    expect(row!.storageKey.startsWith(`${alice.user.domainId}/`)).toBe(true);

    const dl = await call('GET', att.url, alice);
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
    const chat = await createChat(alice);
    const md = await upload(alice, chat.chatId, 'notas.md', 'application/octet-stream', '# Notas\n');
    expect(md.statusCode).toBe(201);
    expect(AttachmentSchema.parse(md.json()).contentType).toBe('text/markdown');
    const csv = await upload(alice, chat.chatId, 'dados.csv', 'application/vnd.ms-excel', 'a,b\n1,2\n');
    expect(AttachmentSchema.parse(csv.json()).contentType).toBe('text/csv');
    const dl = await call('GET', AttachmentSchema.parse(csv.json()).url, alice);
    expect(dl.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(dl.body).toBe('a,b\n1,2\n');
  });

  it('refuses files over UPLOAD_MAX_BYTES with 413 and stores nothing', async () => {
    const chat = await createChat(alice);
    const res = await upload(alice, chat.chatId, 'big.txt', 'text/plain', 'a'.repeat(UPLOAD_MAX + 1));
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.chatId))).toEqual([]);
  });

  it('refuses types not allowed, and bytes that disagree with their type, with 415', async () => {
    const chat = await createChat(alice);
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
      const res = await upload(alice, chat.chatId, name, type, data);
      expect(res.statusCode, name).toBe(415);
      expect(errorOf(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.chatId))).toEqual([]);
  });

  it('refuses a body that is not multipart (415) or has no file (400)', async () => {
    const chat = await createChat(alice);
    const json = await call('POST', `/api/v1/chats/${chat.chatId}/attachments`, alice, { file: 'x' });
    expect(json.statusCode).toBe(415);
    const form = new FormData();
    form.append('note', 'just a field');
    const req = new Request('http://x/', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/${chat.chatId}/attachments`,
      headers: { ...alice.headers, 'content-type': req.headers.get('content-type') ?? '' },
      payload: Buffer.from(await req.arrayBuffer()),
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 404 when the stored object is gone', async () => {
    const chat = await createChat(alice);
    const att = AttachmentSchema.parse((await upload(alice, chat.chatId, 'x.txt', 'text/plain', 'x')).json());
    const [row] = await t.ctx.db.select().from(attachments).where(eq(attachments.id, att.attachmentId));
    await rm(path.join(t.dataDir, 'storage', 'chats', ...row!.storageKey.split('/')));
    const res = await call('GET', att.url, alice);
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'NOT_FOUND', message: 'File not found' });
    const missing = await call(
      'GET',
      `/api/v1/chats/${chat.chatId}/attachments/${crypto.randomUUID()}`,
      alice,
    );
    expect(missing.statusCode).toBe(404);
  });

  it('an unsent upload can be removed; one a message uses cannot', async () => {
    const chat = await createChat(alice);
    const a = AttachmentSchema.parse((await upload(alice, chat.chatId, 'a.txt', 'text/plain', 'a')).json());
    const b = AttachmentSchema.parse((await upload(alice, chat.chatId, 'b.txt', 'text/plain', 'b')).json());
    await appendUserMessage(t.ctx, await callerOf(alice), chat.chatId, {
      content: 'veja',
      attachmentIds: [b.attachmentId],
    });
    expect((await call('DELETE', a.url, alice)).statusCode).toBe(204);
    expect((await call('GET', a.url, alice)).statusCode).toBe(404);
    expect((await call('DELETE', b.url, alice)).statusCode).toBe(409);
    const msgs = await call('GET', `/api/v1/chats/${chat.chatId}/messages`, alice);
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
    const premium = await makeDomain(t.ctx, { premium: true });
    const p = await makeUser(t.ctx, { domain: premium, role: 'Editor' });
    const mine = await makeSantito(t.ctx, p);
    const foreign = await makeSantito(t.ctx, stranger);
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
    const own = await makeSantito(t.ctx, colleague);
    expect((await call('POST', '/api/v1/chats', alice, { agentId: own.id })).statusCode).toBe(400);
  });
});

describe('isolation', () => {
  it('another user of the domain and a user of another domain get 404 everywhere; nothing changes', async () => {
    const { chat, messages: rows } = await makeChat(t.ctx, alice, { title: 'Segredo', messages: ['q', 'a'] });
    const att = AttachmentSchema.parse(
      (await upload(alice, chat.id, 's.txt', 'text/plain', 'segredo')).json(),
    );
    const before = {
      chat: await chatRow(chat.id),
      messages: await t.ctx.db.select().from(messages).where(eq(messages.chatId, chat.id)),
      files: await t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.id)),
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
    for (const who of [colleague, stranger]) {
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
    const service = t.ctx.services.chats;
    for (const who of [colleague, stranger]) {
      const caller = await callerOf(who);
      await expect(service.getChatForCaller(caller, chat.id)).rejects.toMatchObject({ status: 404 });
      await expect(appendUserMessage(t.ctx, caller, chat.id, { content: 'x' })).rejects.toMatchObject({
        status: 404,
      });
      await expect(service.getMessageForCaller(caller, chat.id, rows[0]!.id)).rejects.toMatchObject({
        status: 404,
      });
      expect(await service.getAttachmentsForModel(caller, [att.attachmentId])).toEqual([]);
    }
    expect(await chatRow(chat.id)).toEqual(before.chat);
    expect(await t.ctx.db.select().from(messages).where(eq(messages.chatId, chat.id))).toEqual(
      before.messages,
    );
    expect(await t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chat.id))).toEqual(
      before.files,
    );
    expect((await call('GET', att.url, alice)).body).toBe('segredo');
  });

  it('a user cannot attach another user’s upload to a message', async () => {
    const theirs = await createChat(colleague);
    const att = AttachmentSchema.parse(
      (await upload(colleague, theirs.chatId, 'c.txt', 'text/plain', 'c')).json(),
    );
    const mine = await createChat(alice);
    await expect(
      appendUserMessage(t.ctx, await callerOf(alice), mine.chatId, {
        content: 'x',
        attachmentIds: [att.attachmentId],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('the service the agents websocket uses', () => {
  it('stores a turn: user message first, then a streaming answer flushed and finished', async () => {
    const service = t.ctx.services.chats;
    const caller = await callerOf(alice);
    const chat = await service.createChat(caller, {});
    const file = AttachmentSchema.parse(
      (await upload(alice, chat.chatId, 'n.txt', 'text/plain', 'notas')).json(),
    );
    const user = await appendUserMessage(t.ctx, caller, chat.chatId, {
      content: 'Resuma o arquivo',
      attachmentIds: [file.attachmentId],
    });
    expect(user).toMatchObject({ role: 'user', status: 'complete', parentId: null, attachments: [file] });

    const answer = await service.createAssistantMessage(chat.chatId, user.messageId, 'openai:gpt-4.1-mini');
    expect(answer).toMatchObject({
      role: 'assistant',
      status: 'streaming',
      content: '',
      parentId: user.messageId,
    });
    await flush(answer.messageId, 'Parcial');
    const mid = await call('GET', `/api/v1/chats/${chat.chatId}/messages`, alice);
    expect((mid.json() as Array<{ content: string; status: string }>)[1]).toMatchObject({
      content: 'Parcial',
      status: 'streaming',
    });
    const done = await service.finishAssistantMessage(answer.messageId, {
      status: 'complete',
      content: 'Parcial e final',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    });
    expect(done).toMatchObject({
      status: 'complete',
      usage: { totalTokens: 15 },
      model: 'openai:gpt-4.1-mini',
    });
    // A late flush or a second end (a stop racing the natural end) changes nothing.
    await flush(answer.messageId, ' tarde');
    const again = await service.finishAssistantMessage(answer.messageId, { status: 'stopped', content: 'x' });
    expect(again).toMatchObject({ status: 'complete', content: 'Parcial e final' });

    const models = await service.getAttachmentsForModel(caller, [file.attachmentId, crypto.randomUUID()]);
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({ contentType: 'text/plain', name: 'n.txt' });
    expect(models[0]!.data.toString()).toBe('notas');
  });

  it('gives the model the branch root → leaf, whatever other branches exist', async () => {
    const service = t.ctx.services.chats;
    const caller = await callerOf(alice);
    const chat = await service.createChat(caller, { title: 'ramos' });
    const q1 = await appendUserMessage(t.ctx, caller, chat.chatId, { content: 'q1' });
    const a1 = await service.createAssistantMessage(chat.chatId, q1.messageId, null);
    await service.finishAssistantMessage(a1.messageId, { status: 'complete', content: 'a1' });
    // Omitted parent → after the newest message.
    const q2 = await appendUserMessage(t.ctx, caller, chat.chatId, { content: 'q2' });
    expect(q2.parentId).toBe(a1.messageId);
    const a2 = await service.createAssistantMessage(chat.chatId, q2.messageId, null);
    // Regenerate: a sibling answer under q2.
    const a2b = await service.createAssistantMessage(chat.chatId, q2.messageId, null);
    // Edit q2: a sibling question under a1.
    const q2e = await appendUserMessage(t.ctx, caller, chat.chatId, {
      content: 'q2 edited',
      parentId: a1.messageId,
    });

    const ctxOf = async (leaf: string) =>
      (await service.listMessagesForContext(chat.chatId, leaf)).map((m) => m.messageId);
    expect(await ctxOf(a2.messageId)).toEqual([q1.messageId, a1.messageId, q2.messageId, a2.messageId]);
    expect(await ctxOf(a2b.messageId)).toEqual([q1.messageId, a1.messageId, q2.messageId, a2b.messageId]);
    expect(await ctxOf(q2e.messageId)).toEqual([q1.messageId, a1.messageId, q2e.messageId]);
    expect(await service.listMessagesForContext(chat.chatId, crypto.randomUUID())).toEqual([]);

    const got = await service.getMessageForCaller(caller, chat.chatId, a2.messageId);
    expect(got.parentId).toBe(q2.messageId);
  });

  it('ends answers whose writer died, keeping the partial text; live ones are left alone', async () => {
    const service = t.ctx.services.chats;
    const caller = await callerOf(alice);
    const chat = await service.createChat(caller, {});
    const q = await appendUserMessage(t.ctx, caller, chat.chatId, { content: 'q' });
    const dead = await service.createAssistantMessage(chat.chatId, q.messageId, null);
    await flush(dead.messageId, 'meia resp');
    const live = await service.createAssistantMessage(chat.chatId, q.messageId, null);
    await t.ctx.db
      .update(messages)
      .set({ updatedAt: new Date(Date.now() - 20 * 60_000) })
      .where(eq(messages.id, dead.messageId));
    // The one sweep, run by the scheduler under its lease (the agents module owns answers).
    expect(await t.ctx.scheduler.runNow('agents.stale-answers')).toBe(true);
    const list = z
      .array(MessageSchema)
      .parse((await call('GET', `/api/v1/chats/${chat.chatId}/messages`, alice)).json());
    expect(list.find((m) => m.messageId === dead.messageId)).toMatchObject({
      status: 'error',
      content: 'meia resp',
      error: INTERRUPTED_MESSAGE,
      errorCode: 'UNAVAILABLE',
    });
    expect(list.find((m) => m.messageId === live.messageId)?.status).toBe('streaming');
  });

  it('refuses empty, oversized and mis-parented messages with 400', async () => {
    const service = t.ctx.services.chats;
    const caller = await callerOf(alice);
    const chat = await service.createChat(caller, {});
    const other = await service.createChat(caller, {});
    const foreign = await appendUserMessage(t.ctx, caller, other.chatId, { content: 'x' });
    for (const input of [
      { content: '   ' },
      { content: 'x'.repeat(100_001) },
      { content: 'x', parentId: foreign.messageId },
      { content: 'x', attachmentIds: [crypto.randomUUID()] },
    ]) {
      await expect(appendUserMessage(t.ctx, caller, chat.chatId, input)).rejects.toMatchObject({
        status: 400,
      });
    }
    const res = await call('GET', `/api/v1/chats/${chat.chatId}/messages`, alice);
    expect(res.json()).toEqual([]);
  });
});

/** The UserCaller the auth plugin would make for a test user's token. */
async function callerOf(who: TestUser) {
  const { resolveCaller } = await import('../../plugins/auth.ts');
  return resolveCaller(t.ctx, who.idToken);
}
