import { randomUUID } from 'node:crypto';
import {
  ApiKeyCreatedSchema,
  AttachmentSchema,
  type Chat,
  ChatSchema,
  type Message,
  type MessagePart,
  MessageSchema,
  type Share,
  ShareCopySchema,
  SharedChatSchema,
  ShareOptionsSchema,
  ShareSchema,
  SharingSettingsSchema,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { attachments, auditEntries, chatShares, chats, messages } from '../../db/schema/index.ts';
import { resolveCaller } from '../../plugins/auth.ts';
import { buildTestApp, errorOf, type Method, type TestApp, type Who } from '../../test/app.ts';
import { appendUserMessage, postFile, TINY_PNG } from '../../test/chats.ts';
import { visitorToken } from '../../test/embedded.ts';
import {
  makeDepartment,
  makeDomain,
  makeSantito,
  makeUser,
  type TestDomain,
  type TestUser,
} from '../../test/factories.ts';
import { tick } from './state.ts';

// Share links (docs/ARCHITECTURE.md#share-links) over the whole server: who may make, read,
// continue and revoke them, and that a snapshot stays what it was when the link was made.

let t: TestApp;
let acme: TestDomain;
let other: TestDomain;
/** Alice shares; Bob is of her department, Carol of another one of her domain. */
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let acmeAdmin: TestUser;
let acmeSuper: TestUser;
let stranger: TestUser;
let otherAdmin: TestUser;
let otherSuper: TestUser;

const QUOTA = 20_000;

beforeAll(async () => {
  t = await buildTestApp({ UPLOAD_MAX_BYTES: String(64 * 1024), STORAGE_QUOTA_BYTES: String(QUOTA) });
  acme = await makeDomain(t.ctx, { premium: true });
  other = await makeDomain(t.ctx, { premium: true });
  const sales = await makeDepartment(t.ctx, acme.domain.id, 'Vendas');
  alice = await makeUser(t.ctx, { domain: acme, displayName: 'Alice Andrade' });
  bob = await makeUser(t.ctx, { domain: acme });
  carol = await makeUser(t.ctx, { domain: acme, department: sales });
  acmeAdmin = await makeUser(t.ctx, { domain: acme, role: 'Admin', department: sales });
  acmeSuper = await makeUser(t.ctx, { domain: acme, role: 'SuperAdmin' });
  stranger = await makeUser(t.ctx, { domain: other });
  otherAdmin = await makeUser(t.ctx, { domain: other, role: 'Admin' });
  otherSuper = await makeUser(t.ctx, { domain: other, role: 'SuperAdmin' });
});
afterAll(async () => {
  await t?.close();
});

const call = (method: Method, url: string, who?: Who, payload?: unknown) => t.call(method, url, who, payload);

async function newChat(who: TestUser, body: object = {}): Promise<Chat> {
  const res = await call('POST', '/api/v1/chats', who, { title: 'Plano de vendas', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return ChatSchema.parse(res.json());
}

async function upload(
  who: TestUser,
  chatId: string,
  name: string,
  data: Buffer | string,
  type = 'text/plain',
) {
  const res = await postFile(t.app, `/api/v1/chats/${chatId}/attachments`, who, { name, type, data });
  expect(res.statusCode, res.body).toBe(201);
  return AttachmentSchema.parse(res.json());
}

async function ask(
  who: TestUser,
  chatId: string,
  content: string,
  extra: { parentId?: string | null; attachmentIds?: string[] } = {},
) {
  return appendUserMessage(t.ctx, await resolveCaller(t.ctx, who.idToken), chatId, { content, ...extra });
}

/** An answer, as the generation worker leaves it. */
async function answer(
  chatId: string,
  parentId: string,
  content: string,
  extra: { status?: Message['status']; parts?: MessagePart[]; citations?: Message['citations'] } = {},
): Promise<string> {
  const id = randomUUID();
  const at = tick();
  await t.ctx.db.insert(messages).values({
    id,
    chatId,
    parentId,
    role: 'assistant',
    content,
    status: extra.status ?? 'complete',
    model: 'openai:gpt-4.1-mini',
    usage: { inputTokens: 3, outputTokens: 5, totalTokens: 8 },
    citations: extra.citations ?? null,
    parts: extra.parts ?? null,
    createdAt: at,
    updatedAt: at,
  });
  return id;
}

async function share(who: TestUser, chatId: string, body: object = { audience: 'domain' }): Promise<Share> {
  const res = await call('POST', `/api/v1/chats/${chatId}/shares`, who, body);
  expect(res.statusCode, res.body).toBe(201);
  return ShareSchema.strict().parse(res.json());
}

async function read(shareId: string, who?: Who) {
  const res = await call('GET', `/api/v1/shares/${shareId}`, who);
  return { res, body: res.statusCode === 200 ? SharedChatSchema.strict().parse(res.json()) : undefined };
}

async function views(shareId: string): Promise<number> {
  const [row] = await t.ctx.db
    .select({ views: chatShares.views })
    .from(chatShares)
    .where(eq(chatShares.id, shareId));
  return row?.views ?? -1;
}

async function setPublic(who: TestUser, publicLinks: boolean, domain?: string) {
  const res = await call('PUT', `/api/v1/settings/sharing${domain ? `?domain=${domain}` : ''}`, who, {
    publicLinks,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(SharingSettingsSchema.parse(res.json())).toEqual({ publicLinks });
}

/** A chat of two exchanges with a file on the first question and a chart a tool made. */
async function seededChat(owner: TestUser) {
  const chat = await newChat(owner);
  const notes = await upload(owner, chat.chatId, 'notas.txt', 'metas do trimestre');
  const q1 = await ask(owner, chat.chatId, 'Resuma as metas', { attachmentIds: [notes.attachmentId] });
  const chart = await upload(owner, chat.chatId, 'grafico.png', TINY_PNG, 'image/png');
  const a1 = await answer(chat.chatId, q1.messageId, 'As metas são [1].', {
    citations: [{ title: 'Manual de vendas', url: 'https://example.com/manual', sourceId: 'src-1' }],
    parts: [
      { type: 'text', text: 'Fiz um gráfico. ' },
      {
        type: 'tool',
        toolCallId: 'call-1',
        tool: 'builtin:code_interpreter',
        title: 'Gráfico',
        input: { code: 'plot()' },
        status: 'done',
        output: 'ok',
        files: [chart],
      },
    ],
  });
  const q2 = await ask(owner, chat.chatId, 'E o próximo passo?', { parentId: a1 });
  const a2 = await answer(chat.chatId, q2.messageId, 'Ligar para os clientes.');
  return { chat, notes, chart, q1, a1, q2, a2 };
}

describe('making a link', () => {
  it('snapshots the branch of the newest message with its files, citations and tool steps', async () => {
    const seeded = await seededChat(alice);
    const made = await share(alice, seeded.chat.chatId);
    expect(made.shareId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(made).toMatchObject({
      url: `http://localhost:3999/s/${made.shareId}`,
      chatId: seeded.chat.chatId,
      title: 'Plano de vendas',
      audience: 'domain',
      expiresAt: null,
      views: 0,
      messageCount: 4,
    });

    const { body } = await read(made.shareId, bob);
    expect(body!.sharedBy).toBe('Alice Andrade');
    expect(body!.own).toBe(false);
    expect(body!.messages.map((m) => m.content)).toEqual([
      'Resuma as metas',
      'As metas são [1].',
      'E o próximo passo?',
      'Ligar para os clientes.',
    ]);
    const [q1, a1] = body!.messages;
    expect(q1!.attachments?.[0]).toMatchObject({
      name: 'notas.txt',
      url: `/api/v1/shares/${made.shareId}/files/${seeded.notes.attachmentId}`,
    });
    expect(a1!.citations?.[0]?.title).toBe('Manual de vendas');
    const tool = a1!.parts?.find((p) => p.type === 'tool');
    expect(tool?.type === 'tool' && tool.files?.[0]?.url).toBe(
      `/api/v1/shares/${made.shareId}/files/${seeded.chart.attachmentId}`,
    );

    const [audit] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'share.create'), eq(auditEntries.targetId, made.shareId)));
    expect(audit).toMatchObject({
      actorId: alice.user.id,
      domainId: acme.domain.id,
      targetType: 'share',
      after: { audience: 'domain', chatId: seeded.chat.chatId },
    });
  });

  it('later edits and regenerations do not change the snapshot', async () => {
    const { chat, q1, a1, q2 } = await seededChat(alice);
    const made = await share(alice, chat.chatId);
    // Regenerate the last answer, then edit the second question: the chat's newest branch changes.
    await answer(chat.chatId, q2.messageId, 'Outra resposta.');
    const edited = await ask(alice, chat.chatId, 'Qual o prazo?', { parentId: a1 });
    await answer(chat.chatId, edited.messageId, 'Até sexta.');
    await call('PUT', `/api/v1/chats/${chat.chatId}`, alice, { title: 'Novo título' });

    const { body } = await read(made.shareId, bob);
    expect(body!.title).toBe('Plano de vendas');
    expect(body!.messages.map((m) => m.content)).toEqual([
      'Resuma as metas',
      'As metas são [1].',
      'E o próximo passo?',
      'Ligar para os clientes.',
    ]);
    // A new link takes the branch of the newest message now; `leaf` picks another one.
    const now = await share(alice, chat.chatId);
    expect((await read(now.shareId, bob)).body!.messages.map((m) => m.content)).toEqual([
      'Resuma as metas',
      'As metas são [1].',
      'Qual o prazo?',
      'Até sexta.',
    ]);
    const first = await share(alice, chat.chatId, { audience: 'domain', leaf: q1.messageId });
    // From the leaf on, the branch runs to its newest descendant (as the export does).
    expect(first.messageCount).toBe(4);
  });

  it('leaves out an answer still being written, and refuses a chat with nothing finished', async () => {
    const chat = await newChat(alice);
    const q = await ask(alice, chat.chatId, 'Pergunta');
    await answer(chat.chatId, q.messageId, 'meio escri', { status: 'streaming' });
    const made = await share(alice, chat.chatId);
    expect(made.messageCount).toBe(1);

    const blank = await newChat(alice);
    const nothing = await call('POST', `/api/v1/chats/${blank.chatId}/shares`, alice, { audience: 'domain' });
    expect(nothing.statusCode).toBe(409);
    expect(errorOf(nothing).code).toBe('CONFLICT');
  });

  it('refuses bad input, another person’s chat, visitors and API keys, and changes nothing', async () => {
    const { chat } = await seededChat(alice);
    const url = `/api/v1/chats/${chat.chatId}/shares`;
    const past = await call('POST', url, alice, { audience: 'domain', expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(errorOf(past).message).toContain('expiresAt');
    expect((await call('POST', url, alice, { audience: 'everyone' })).statusCode).toBe(400);
    expect((await call('POST', url, alice, { audience: 'domain', leaf: randomUUID() })).statusCode).toBe(404);
    // Someone else's chat, of the same domain or not, an Admin's included: as if there were none.
    for (const who of [bob, acmeAdmin, otherSuper]) {
      const res = await call('POST', url, who, { audience: 'domain' });
      expect(res.statusCode).toBe(404);
    }
    expect(
      (await call('POST', `/api/v1/chats/${randomUUID()}/shares`, alice, { audience: 'domain' })).statusCode,
    ).toBe(404);
    expect((await call('POST', url, null, { audience: 'domain' })).statusCode).toBe(401);

    const key = await call('POST', '/api/v1/api_keys', alice, { name: 'shares' });
    expect(key.statusCode, key.body).toBe(201);
    const asKey = { headers: { authorization: `Bearer ${ApiKeyCreatedSchema.parse(key.json()).secret}` } };
    expect((await call('POST', url, asKey, { audience: 'domain' })).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/shares', asKey)).statusCode).toBe(401);

    const embed = await call('POST', '/api/v1/virtual_account', acmeAdmin, {
      displayName: 'Loja',
      allowedOrigins: ['https://loja.example'],
    });
    expect(embed.statusCode, embed.body).toBe(201);
    const va = VirtualAccountWithSecretSchema.parse(embed.json());
    const asVisitor = {
      headers: {
        authorization: `Bearer ${await visitorToken(t.app, va.virtualAccountId, 'https://loja.example')}`,
      },
    };
    const visitorChat = await call('POST', '/api/v1/chats', asVisitor, {});
    expect(visitorChat.statusCode).toBe(201);
    const visitorShare = await call(
      'POST',
      `/api/v1/chats/${ChatSchema.parse(visitorChat.json()).chatId}/shares`,
      asVisitor,
      { audience: 'domain' },
    );
    expect([401, 403]).toContain(visitorShare.statusCode);

    const rows = await t.ctx.db.select().from(chatShares).where(eq(chatShares.chatId, chat.chatId));
    expect(rows).toEqual([]);
  });
});

describe('reading a link', () => {
  it('is the domain’s: not another domain’s (a SuperAdmin included), nor anyone signed out', async () => {
    const { chat } = await seededChat(alice);
    const made = await share(alice, chat.chatId);
    for (const who of [bob, carol, acmeAdmin, acmeSuper])
      expect((await read(made.shareId, who)).res.statusCode).toBe(200);
    for (const who of [stranger, otherAdmin, otherSuper, null]) {
      const { res } = await read(made.shareId, who);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe('NOT_FOUND');
    }
    expect((await read('AAAAAAAAAAAAAAAAAAAAAA', bob)).res.statusCode).toBe(404);
    expect((await read('not-a-share', bob)).res.statusCode).toBe(404);
  });

  it('counts a view per read by anyone but the owner', async () => {
    const { chat } = await seededChat(alice);
    const made = await share(alice, chat.chatId);
    expect((await read(made.shareId, alice)).body!.own).toBe(true);
    expect(await views(made.shareId)).toBe(0);
    await read(made.shareId, bob);
    await read(made.shareId, carol);
    await read(made.shareId, stranger); // refused: not a view
    expect(await views(made.shareId)).toBe(2);
    const list = await call('GET', '/api/v1/shares', alice);
    expect(
      z
        .array(ShareSchema)
        .parse(list.json())
        .find((s) => s.shareId === made.shareId)?.views,
    ).toBe(2);
  });

  it('a department link is the department’s and its owner’s only', async () => {
    const { chat } = await seededChat(alice);
    const made = await share(alice, chat.chatId, { audience: 'department' });
    expect((await read(made.shareId, alice)).res.statusCode).toBe(200);
    expect((await read(made.shareId, bob)).res.statusCode).toBe(200);
    for (const who of [carol, acmeAdmin, stranger, null])
      expect((await read(made.shareId, who)).res.statusCode).toBe(404);
  });

  it('stops at once when revoked, expired, or its chat deleted', async () => {
    const { chat } = await seededChat(alice);
    const revoked = await share(alice, chat.chatId);
    const expiring = await share(alice, chat.chatId, {
      audience: 'domain',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await read(expiring.shareId, bob)).res.statusCode).toBe(200);
    await t.ctx.db
      .update(chatShares)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(chatShares.id, expiring.shareId));
    expect((await read(expiring.shareId, bob)).res.statusCode).toBe(404);

    expect((await call('DELETE', `/api/v1/shares/${revoked.shareId}`, alice)).statusCode).toBe(204);
    expect((await read(revoked.shareId, bob)).res.statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/shares/${revoked.shareId}`, alice)).statusCode).toBe(404);

    const live = await share(alice, chat.chatId);
    expect((await call('DELETE', `/api/v1/chats/${chat.chatId}`, alice)).statusCode).toBe(204);
    expect((await read(live.shareId, bob)).res.statusCode).toBe(404);
    expect((await read(live.shareId, alice)).res.statusCode).toBe(404);
    expect(
      z
        .array(ShareSchema)
        .parse((await call('GET', '/api/v1/shares', alice)).json())
        .map((s) => s.shareId),
    ).not.toContain(live.shareId);
    // Undone within its window, the chat brings its link back; purged, the link is gone with it.
    expect((await call('POST', `/api/v1/chats/${chat.chatId}/restore`, alice)).statusCode).toBe(200);
    expect((await read(live.shareId, bob)).res.statusCode).toBe(200);
    await call('DELETE', `/api/v1/chats/${chat.chatId}`, alice);
    await t.ctx.services.chats.purgeDeleted(new Date(Date.now() + 60_000));
    expect(await t.ctx.db.select().from(chatShares).where(eq(chatShares.id, live.shareId))).toEqual([]);
  });

  it('public links exist only where an Admin allows them, and stop being public when turned off', async () => {
    const { chat } = await seededChat(alice);
    const refused = await call('POST', `/api/v1/chats/${chat.chatId}/shares`, alice, { audience: 'public' });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toMatch(/public links/i);
    expect(ShareOptionsSchema.parse((await call('GET', '/api/v1/shares/options', bob)).json())).toEqual({
      publicLinks: false,
    });

    await setPublic(acmeAdmin, true);
    expect(ShareOptionsSchema.parse((await call('GET', '/api/v1/shares/options', bob)).json())).toEqual({
      publicLinks: true,
    });
    const made = await share(alice, chat.chatId, { audience: 'public' });
    const anonymous = await read(made.shareId, null);
    expect(anonymous.res.statusCode).toBe(200);
    expect(anonymous.body!.messages).toHaveLength(4);
    expect((await read(made.shareId, stranger)).res.statusCode).toBe(200);
    const file = anonymous.body!.messages[0]!.attachments![0]!;
    const dl = await call('GET', file.url, null);
    expect(dl.statusCode).toBe(200);
    expect(dl.body).toBe('metas do trimestre');

    // Turned off: the link reads as the domain's (signed-in people of the domain only).
    await setPublic(acmeAdmin, false);
    expect((await read(made.shareId, null)).res.statusCode).toBe(404);
    expect((await call('GET', file.url, null)).statusCode).toBe(404);
    expect((await read(made.shareId, stranger)).res.statusCode).toBe(404);
    expect((await read(made.shareId, bob)).res.statusCode).toBe(200);
  });
});

describe('a link’s files', () => {
  it('are read through the link only, and only the snapshot’s', async () => {
    const seeded = await seededChat(alice);
    const made = await share(alice, seeded.chat.chatId);
    const later = await upload(alice, seeded.chat.chatId, 'depois.txt', 'enviado depois');
    await ask(alice, seeded.chat.chatId, 'mais um', { attachmentIds: [later.attachmentId] });

    const base = `/api/v1/shares/${made.shareId}/files`;
    const notes = await call('GET', `${base}/${seeded.notes.attachmentId}`, bob);
    expect(notes.statusCode).toBe(200);
    expect(notes.headers['content-disposition']).toContain('notas.txt');
    expect(notes.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    const chart = await call('GET', `${base}/${seeded.chart.attachmentId}`, bob);
    expect(chart.statusCode).toBe(200);
    expect(chart.rawPayload.equals(TINY_PNG)).toBe(true);
    // A file sent after the link was made, an unknown one, another reader's refusal.
    expect((await call('GET', `${base}/${later.attachmentId}`, bob)).statusCode).toBe(404);
    expect((await call('GET', `${base}/${randomUUID()}`, bob)).statusCode).toBe(404);
    expect((await call('GET', `${base}/${seeded.notes.attachmentId}`, stranger)).statusCode).toBe(404);
    expect((await call('GET', `${base}/${seeded.notes.attachmentId}`, null)).statusCode).toBe(404);
    // The chat's own address stays its owner's.
    expect((await call('GET', seeded.notes.url, bob)).statusCode).toBe(404);
  });
});

describe('continuing a link as a copy', () => {
  it('makes a chat of the reader’s with the messages and their files, under new ids', async () => {
    const santito = await makeSantito(t.ctx, alice, { name: 'Vendedor' });
    const seeded = await seededChat(alice);
    await t.ctx.db.update(chats).set({ agentId: santito.id }).where(eq(chats.id, seeded.chat.chatId));
    const made = await share(alice, seeded.chat.chatId);
    expect((await read(made.shareId, bob)).body!.santitoName).toBe('Vendedor');

    const res = await call('POST', `/api/v1/shares/${made.shareId}/copy`, bob);
    expect(res.statusCode, res.body).toBe(201);
    const { chatId } = ShareCopySchema.parse(res.json());
    expect(chatId).not.toBe(seeded.chat.chatId);
    const copy = ChatSchema.parse((await call('GET', `/api/v1/chats/${chatId}`, bob)).json());
    expect(copy).toMatchObject({ title: 'Plano de vendas', agentId: santito.id });
    const list = z
      .array(MessageSchema)
      .parse((await call('GET', `/api/v1/chats/${chatId}/messages`, bob)).json());
    expect(list.map((m) => m.content)).toEqual([
      'Resuma as metas',
      'As metas são [1].',
      'E o próximo passo?',
      'Ligar para os clientes.',
    ]);
    expect(list.map((m) => m.parentId)).toEqual([
      null,
      list[0]!.messageId,
      list[1]!.messageId,
      list[2]!.messageId,
    ]);
    expect(list.some((m) => [seeded.q1.messageId, seeded.a1].includes(m.messageId))).toBe(false);
    const file = list[0]!.attachments![0]!;
    expect(file.attachmentId).not.toBe(seeded.notes.attachmentId);
    expect(file.chatId).toBe(chatId);
    expect((await call('GET', file.url, bob)).body).toBe('metas do trimestre');
    const tool = list[1]!.parts!.find((p) => p.type === 'tool');
    const chart = tool?.type === 'tool' ? tool.files?.[0] : undefined;
    expect(chart?.url).toBe(`/api/v1/chats/${chatId}/attachments/${chart?.attachmentId}`);
    expect((await call('GET', chart!.url, bob)).rawPayload.equals(TINY_PNG)).toBe(true);
    expect(list[1]!.citations?.[0]?.title).toBe('Manual de vendas');
    // The copy is Bob's: his files, counted against his domain; the original's are untouched.
    const rows = await t.ctx.db.select().from(attachments).where(eq(attachments.chatId, chatId));
    expect(rows.map((r) => r.userId)).toEqual([bob.user.id, bob.user.id]);
    expect((await call('GET', seeded.notes.url, alice)).statusCode).toBe(200);

    // A reader who may not read the link may not copy it; nor may anyone signed out.
    expect((await call('POST', `/api/v1/shares/${made.shareId}/copy`, stranger)).statusCode).toBe(404);
    expect((await call('POST', `/api/v1/shares/${made.shareId}/copy`, null)).statusCode).toBe(401);
  });

  it('drops the santito for a reader of another domain, and refuses files that do not fit', async () => {
    await setPublic(acmeSuper, true);
    const santito = await makeSantito(t.ctx, alice);
    const chat = await newChat(alice, { agentId: santito.id });
    const q = await ask(alice, chat.chatId, 'Olá');
    await answer(chat.chatId, q.messageId, 'Oi!');
    const made = await share(alice, chat.chatId, { audience: 'public' });
    const res = await call('POST', `/api/v1/shares/${made.shareId}/copy`, stranger);
    expect(res.statusCode, res.body).toBe(201);
    const copy = ChatSchema.parse(
      (await call('GET', `/api/v1/chats/${ShareCopySchema.parse(res.json()).chatId}`, stranger)).json(),
    );
    expect(copy.agentId).toBeNull();

    await setPublic(acmeSuper, false);
  });

  it('counts the files against the reader’s domain, refusing them when they do not fit', async () => {
    const owner = await makeUser(t.ctx, { domain: await makeDomain(t.ctx) });
    const reader = await makeUser(t.ctx, { domain: await makeDomain(t.ctx) });
    await setPublic(otherSuper, true, owner.user.domainId);
    const chat = await newChat(owner);
    const file = await upload(owner, chat.chatId, 'grande.txt', 'x'.repeat(Math.ceil(QUOTA * 0.6)));
    await ask(owner, chat.chatId, 'veja', { attachmentIds: [file.attachmentId] });
    const made = await share(owner, chat.chatId, { audience: 'public' });
    const url = `/api/v1/shares/${made.shareId}/copy`;
    expect((await call('POST', url, reader)).statusCode).toBe(201);
    // The reader's domain now holds 60% of its quota: a second copy does not fit, and nothing is kept.
    const refused = await call('POST', url, reader);
    expect(refused.statusCode).toBe(402);
    expect(errorOf(refused).code).toBe('QUOTA_EXCEEDED');
    const owned = await t.ctx.db.select().from(attachments).where(eq(attachments.userId, reader.user.id));
    expect(owned).toHaveLength(1);
    expect(z.array(ChatSchema).parse((await call('GET', '/api/v1/chats', reader)).json())).toHaveLength(1);
  });
});

describe('the owner’s links', () => {
  it('lists their own, newest first, page by page', async () => {
    const owner = await makeUser(t.ctx, { domain: acme });
    const { chat } = await seededChat(owner);
    const made: Share[] = [];
    for (let i = 0; i < 3; i++) made.push(await share(owner, chat.chatId));
    const first = await call('GET', '/api/v1/shares?limit=2', owner);
    expect(first.headers['x-total-count']).toBe('3');
    const page1 = z.array(ShareSchema).parse(first.json());
    expect(page1.map((s) => s.shareId)).toEqual([made[2]!.shareId, made[1]!.shareId]);
    const cursor = first.headers['x-next-cursor'] as string;
    const page2 = z
      .array(ShareSchema)
      .parse(
        (await call('GET', `/api/v1/shares?limit=2&cursor=${encodeURIComponent(cursor)}`, owner)).json(),
      );
    expect(page2.map((s) => s.shareId)).toEqual([made[0]!.shareId]);
    expect((await call('GET', '/api/v1/shares?cursor=forged', owner)).statusCode).toBe(400);
    // Nobody else's links are in it.
    expect(
      z
        .array(ShareSchema)
        .parse((await call('GET', '/api/v1/shares', bob)).json())
        .map((s) => s.shareId),
    ).not.toContain(made[0]!.shareId);
  });

  it('revokes: the owner or an Admin of the domain; nobody else', async () => {
    const { chat } = await seededChat(alice);
    const made = await share(alice, chat.chatId);
    for (const who of [bob, carol, otherAdmin])
      expect((await call('DELETE', `/api/v1/shares/${made.shareId}`, who)).statusCode).toBe(404);
    expect((await read(made.shareId, bob)).res.statusCode).toBe(200);
    expect((await call('DELETE', `/api/v1/shares/${made.shareId}`, acmeAdmin)).statusCode).toBe(204);
    expect((await read(made.shareId, bob)).res.statusCode).toBe(404);
    const [audit] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'share.revoke'), eq(auditEntries.targetId, made.shareId)));
    expect(audit).toMatchObject({
      actorId: acmeAdmin.user.id,
      domainId: acme.domain.id,
      targetType: 'share',
    });
  });
});

describe('sharing settings', () => {
  it('each role: Admins of the domain and SuperAdmins read and change them; nobody else', async () => {
    const url = '/api/v1/settings/sharing';
    const viewer = await makeUser(t.ctx, { domain: acme, role: 'Viewer' });
    const editor = await makeUser(t.ctx, { domain: acme, role: 'Editor' });
    for (const who of [viewer, editor]) {
      expect((await call('GET', url, who)).statusCode).toBe(403);
      expect((await call('PUT', url, who, { publicLinks: true })).statusCode).toBe(403);
    }
    expect((await call('GET', url, null)).statusCode).toBe(401);
    expect(SharingSettingsSchema.parse((await call('GET', url, acmeAdmin)).json())).toEqual({
      publicLinks: false,
    });
    // Another domain's Admin acts on their own domain only; a SuperAdmin on any.
    expect(
      (await call('PUT', `${url}?domain=${acme.domain.id}`, otherAdmin, { publicLinks: true })).statusCode,
    ).toBe(403);
    await setPublic(otherSuper, true, acme.domain.id);
    expect(SharingSettingsSchema.parse((await call('GET', url, acmeAdmin)).json())).toEqual({
      publicLinks: true,
    });
    expect(SharingSettingsSchema.parse((await call('GET', url, otherAdmin)).json())).toEqual({
      publicLinks: false,
    });
    expect((await call('GET', `${url}?domain=nowhere.example`, otherSuper)).statusCode).toBe(404);
    expect((await call('PUT', url, acmeAdmin, { publicLinks: 'yes' })).statusCode).toBe(400);
    await setPublic(acmeAdmin, false);
    const audits = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.action, 'sharing.settings.update'), eq(auditEntries.targetId, acme.domain.id)),
      );
    expect(
      audits.some(
        (a) =>
          a.actorId === otherSuper.user.id && (a.after as { publicLinks?: boolean }).publicLinks === true,
      ),
    ).toBe(true);
  });
});
