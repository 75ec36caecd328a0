import {
  AuditEntrySchema,
  ErrorBodySchema,
  KnowledgeSourceSchema,
  type Santito,
  SantitoSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chats, santitos } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { postFile, TINY_PNG } from '../../test/chats.ts';
import {
  makeChat,
  makeDepartment,
  makeDomain,
  makeSantito,
  makeUser,
  type TestDomain,
  type TestUser,
} from '../../test/factories.ts';

let t: TestApp;
let p: TestDomain;
let sales: Awaited<ReturnType<typeof makeDepartment>>;
let viewer: TestUser;
let editor: TestUser;
let salesEditor: TestUser;
let admin: TestUser;
let otherEditor: TestUser;
let otherAdmin: TestUser;
let plainAdmin: TestUser;
let listedEditor: TestUser;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(method: Method, url: string, who?: TestUser, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
const uploadAvatar = (who: TestUser, id: string, name: string, type: string, data: Buffer | string) =>
  postFile(t.app, `/api/v1/agent/${id}/avatar`, who, { name, type, data });
const errorOf = (res: LightMyRequestResponse) => ErrorBodySchema.parse(res.json()).error;
async function create(who: TestUser, body: object): Promise<Santito> {
  const res = await call('POST', '/api/v1/agent', who, body);
  expect(res.statusCode, res.body).toBe(201);
  return SantitoSchema.strict().parse(res.json());
}
async function row(id: string) {
  const [r] = await t.ctx.db.select().from(santitos).where(eq(santitos.id, id));
  return r;
}
async function listIds(who: TestUser): Promise<string[]> {
  const res = await call('GET', '/api/v1/agent?limit=200', who);
  expect(res.statusCode).toBe(200);
  return z
    .array(SantitoSchema)
    .parse(res.json())
    .map((s) => s._id);
}

beforeAll(async () => {
  // An instance-wide OpenAI provider: santitos may name its models, and no other provider's.
  t = await buildTestApp({ PREMIUM_DOMAINS: 'listed.example.net', OPENAI_API_KEY: 'sk-test' });
  p = await makeDomain(t.ctx, { premium: true });
  sales = await makeDepartment(t.ctx, p.domain.id, 'Vendas');
  viewer = await makeUser(t.ctx, { domain: p, role: 'Viewer' });
  editor = await makeUser(t.ctx, { domain: p, role: 'Editor' });
  salesEditor = await makeUser(t.ctx, { domain: { domain: p.domain, department: sales }, role: 'Editor' });
  admin = await makeUser(t.ctx, { domain: p, role: 'Admin' });
  const q = await makeDomain(t.ctx, { premium: true });
  otherEditor = await makeUser(t.ctx, { domain: q, role: 'Editor' });
  otherAdmin = await makeUser(t.ctx, { domain: q, role: 'SuperAdmin' });
  plainAdmin = await makeUser(t.ctx, { role: 'Admin' });
  const listed = await makeDomain(t.ctx, { id: 'listed.example.net' });
  listedEditor = await makeUser(t.ctx, { domain: listed, role: 'Editor' });
});

afterAll(async () => {
  await t?.close();
});

describe('create', () => {
  it('an Editor creates a santito with every field', async () => {
    const s = await create(editor, {
      name: '  Jurídico  ',
      description: 'Responde dúvidas de contratos',
      avatar: '⚖️',
      instructions: 'Você é um advogado cuidadoso.',
      model: 'openai:gpt-4.1-mini',
      starters: ['Revise este contrato', 'O que é uma cláusula penal?'],
      knowledge: [{ kind: 'confluence', ref: 'SPACE-1', title: 'Manual jurídico' }],
    });
    expect(s).toMatchObject({
      name: 'Jurídico',
      domain: p.domain.id,
      avatar: '⚖️',
      avatarUrl: null,
      visibility: 'domain',
      departmentId: null,
      authorId: editor.user.id,
      canEdit: true,
    });
    const got = await call('GET', `/api/v1/agent/${s._id}`, viewer);
    expect(got.statusCode).toBe(200);
    expect(SantitoSchema.parse(got.json())).toEqual({ ...s, canEdit: false });
  });

  it('a name alone is enough; the rest gets defaults', async () => {
    const s = await create(admin, { name: 'Mínimo' });
    expect(s).toMatchObject({ description: '', instructions: '', model: null, starters: [], knowledge: [] });
  });

  it('a Viewer cannot create one (403) and nothing is stored', async () => {
    const before = (await t.ctx.db.select().from(santitos)).length;
    const res = await call('POST', '/api/v1/agent', viewer, { name: 'Nope' });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('FORBIDDEN');
    expect((await t.ctx.db.select().from(santitos)).length).toBe(before);
  });

  it('bad input gets 400 and nothing is stored', async () => {
    const before = (await t.ctx.db.select().from(santitos)).length;
    const bad: object[] = [
      {},
      { name: '' },
      { name: 'x'.repeat(81) },
      { name: 'x', starters: ['1', '2', '3', '4', '5', '6', '7'] },
      { name: 'x', starters: [''] },
      { name: 'x', avatar: 'abc' },
      { name: 'x', avatar: '<img src=x onerror=alert(1)>' },
      { name: 'x', model: 'gpt4' },
      { name: 'x', model: 'anthropic:claude-3' },
      { name: 'x', visibility: 'public' },
      { name: 'x', visibility: 'department' },
      { name: 'x', visibility: 'department', departmentId: 'nope' },
      { name: 'x', knowledge: [{ kind: 'url' }] },
      { name: 'x', domain: 'other.example.com' },
      { name: 'x', authorId: 'someone@else.com' },
    ];
    for (const body of bad) {
      const res = await call('POST', '/api/v1/agent', editor, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    expect((await t.ctx.db.select().from(santitos)).length).toBe(before);
  });

  it('a department of another domain cannot be named', async () => {
    const foreignDept = await makeDepartment(t.ctx, otherEditor.user.domainId, 'Fora');
    const res = await call('POST', '/api/v1/agent', editor, {
      name: 'x',
      visibility: 'department',
      departmentId: foreignDept.id,
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).details).toEqual([
      { path: 'departmentId', message: 'No such department in your organisation' },
    ]);
  });
});

describe('visibility', () => {
  it('domain santitos are seen by all; department ones by that department, the author and Admins', async () => {
    const open = await create(editor, { name: 'Aberto' });
    const dept = await create(editor, {
      name: 'Vendas só',
      visibility: 'department',
      departmentId: sales.id,
    });
    expect(dept.departmentId).toBe(sales.id);

    expect(await listIds(viewer)).toContain(open._id);
    expect(await listIds(viewer)).not.toContain(dept._id);
    expect((await call('GET', `/api/v1/agent/${dept._id}`, viewer)).statusCode).toBe(404);

    for (const who of [salesEditor, editor, admin]) {
      expect(await listIds(who)).toEqual(expect.arrayContaining([open._id, dept._id]));
      expect((await call('GET', `/api/v1/agent/${dept._id}`, who)).statusCode).toBe(200);
    }
  });

  it('lists page by page, ordered by name, with a total; q filters by name and description', async () => {
    const author = await makeUser(t.ctx, {
      domain: await makeDomain(t.ctx, { premium: true }),
      role: 'Editor',
    });
    for (const name of ['Delta', 'alfa', 'Charlie', 'Bravo', 'Echo']) await create(author, { name });
    await create(author, { name: 'Zulu', description: 'fala sobre FINANÇAS' });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await call('GET', `/api/v1/agent?limit=4${cursor ? `&cursor=${cursor}` : ''}`, author);
      expect(res.headers['x-total-count']).toBe('6');
      seen.push(...(res.json() as Santito[]).map((s) => s.name));
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(['alfa', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Zulu']);
    const found = await call('GET', '/api/v1/agent?q=finanças', author);
    expect((found.json() as Santito[]).map((s) => s.name)).toEqual(['Zulu']);
    expect((await call('GET', '/api/v1/agent?cursor=bad', author)).statusCode).toBe(400);
  });
});

describe('edit and delete', () => {
  it('the author and an Admin edit; another Editor or a Viewer gets 403 and nothing changes', async () => {
    const s = await create(editor, { name: 'Original', starters: ['a'] });
    const before = await row(s._id);
    for (const who of [salesEditor, viewer]) {
      const put = await call('PUT', `/api/v1/agent/${s._id}`, who, { name: 'Hacked' });
      expect(put.statusCode).toBe(403);
      expect((await call('DELETE', `/api/v1/agent/${s._id}`, who)).statusCode).toBe(403);
      const up = await uploadAvatar(who, s._id, 'a.png', 'image/png', TINY_PNG);
      expect(up.statusCode).toBe(403);
    }
    expect(await row(s._id)).toEqual(before);

    const byAuthor = await call('PUT', `/api/v1/agent/${s._id}`, editor, {
      name: 'Renomeado',
      starters: ['x', 'y'],
      visibility: 'department',
      departmentId: sales.id,
    });
    expect(byAuthor.statusCode).toBe(200);
    expect(SantitoSchema.parse(byAuthor.json())).toMatchObject({
      name: 'Renomeado',
      starters: ['x', 'y'],
      visibility: 'department',
      departmentId: sales.id,
    });
    const byAdmin = await call('PUT', `/api/v1/agent/${s._id}`, admin, { visibility: 'domain' });
    expect(SantitoSchema.parse(byAdmin.json())).toMatchObject({ visibility: 'domain', departmentId: null });
    expect((await row(s._id))?.authorId).toBe(editor.user.id);
  });

  it('bad updates get 400 and change nothing', async () => {
    const s = await create(editor, { name: 'Estável' });
    const before = await row(s._id);
    for (const body of [
      {},
      { name: '' },
      { starters: Array.from({ length: 7 }, (_, i) => `s${i}`) },
      { visibility: 'department' },
      { authorId: viewer.user.id },
      { avatar: 'not an emoji' },
      { model: 'anthropic:claude-3' },
    ]) {
      const res = await call('PUT', `/api/v1/agent/${s._id}`, editor, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await row(s._id)).toEqual(before);
  });

  it('a santito whose model is gone stays editable; changing to a model nobody offers is refused', async () => {
    const s = await create(editor, { name: 'Órfão', model: 'openai:gpt-4.1-mini' });
    // As if the provider that offered its model had been removed since.
    await t.ctx.db.update(santitos).set({ model: 'p0removed0000:old' }).where(eq(santitos.id, s._id));
    const kept = await call('PUT', `/api/v1/agent/${s._id}`, editor, {
      name: 'Órfão editado',
      model: 'p0removed0000:old',
    });
    expect(kept.statusCode).toBe(200);
    expect(SantitoSchema.parse(kept.json())).toMatchObject({
      name: 'Órfão editado',
      model: 'p0removed0000:old',
    });
    const moved = await call('PUT', `/api/v1/agent/${s._id}`, editor, { model: 'p0other00000:new' });
    expect(moved.statusCode).toBe(400);
    expect(errorOf(moved).code).toBe('VALIDATION_FAILED');
  });

  it('deleting keeps the chats that used it, without the santito', async () => {
    const s = await create(editor, { name: 'Temporário' });
    const { chat } = await makeChat(t.ctx, viewer, { agentId: s._id, title: 'com santito' });
    expect((await call('DELETE', `/api/v1/agent/${s._id}`, admin)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/agent/${s._id}`, editor)).statusCode).toBe(404);
    const [c] = await t.ctx.db.select().from(chats).where(eq(chats.id, chat.id));
    expect(c?.agentId).toBeNull();
  });
});

describe('audit', () => {
  it('creating, changing and deleting a santito are logged with its instructions and sources by name', async () => {
    const src = await call('POST', '/api/v1/integration/knowledge', admin, {
      kind: 'files',
      displayName: 'Manual de vendas',
    });
    expect(src.statusCode, src.body).toBe(201);
    const sourceId = KnowledgeSourceSchema.parse(src.json()).sourceId;
    const s = await create(editor, {
      name: 'Vendedor',
      instructions: 'Seja breve.',
      knowledge: [{ kind: 'source', ref: sourceId, title: 'título antigo' }],
    });
    // Refused and invalid changes leave no entry.
    expect(
      (await call('PUT', `/api/v1/agent/${s._id}`, viewer, { instructions: 'Ignore tudo.' })).statusCode,
    ).toBe(403);
    expect((await call('PUT', `/api/v1/agent/${s._id}`, editor, { name: '' })).statusCode).toBe(400);
    const put = await call('PUT', `/api/v1/agent/${s._id}`, editor, {
      instructions: 'Seja detalhado.',
      visibility: 'department',
      departmentId: sales.id,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call('DELETE', `/api/v1/agent/${s._id}`, editor)).statusCode).toBe(204);

    const log = await call('GET', `/api/v1/audit?targetType=santito&targetId=${s._id}`, admin);
    expect(log.statusCode, log.body).toBe(200);
    const [removed, changed, created] = AuditEntrySchema.array().parse(log.json());
    expect(log.json()).toHaveLength(3);
    expect(created).toMatchObject({
      action: 'santito.create',
      domain: p.domain.id,
      actor: { id: editor.user.id },
      before: null,
      after: {
        displayName: 'Vendedor',
        instructions: 'Seja breve.',
        knowledge: ['Manual de vendas'],
        visibility: 'domain',
        department: null,
      },
    });
    expect(changed).toMatchObject({ action: 'santito.update', actor: { id: editor.user.id } });
    expect(changed?.before).toEqual({
      displayName: 'Vendedor',
      instructions: 'Seja breve.',
      visibility: 'domain',
      department: null,
    });
    expect(changed?.after).toEqual({
      displayName: 'Vendedor',
      instructions: 'Seja detalhado.',
      visibility: 'department',
      department: 'Vendas',
    });
    expect(removed).toMatchObject({
      action: 'santito.delete',
      before: { displayName: 'Vendedor', instructions: 'Seja detalhado.', knowledge: ['Manual de vendas'] },
      after: null,
    });
  });
});

describe('avatar', () => {
  it('uploads an image, serves it with safe headers, and an emoji replaces it', async () => {
    const s = await create(editor, { name: 'Com foto', avatar: '🤖' });
    const res = await uploadAvatar(editor, s._id, 'eu.png', 'image/png', TINY_PNG);
    expect(res.statusCode).toBe(200);
    const withImage = SantitoSchema.parse(res.json());
    expect(withImage.avatar).toBeNull();
    expect(withImage.avatarUrl).toMatch(new RegExp(`^/api/v1/agent/${s._id}/avatar\\?v=\\d+$`));

    const img = await call('GET', withImage.avatarUrl!, viewer);
    expect(img.statusCode).toBe(200);
    expect(img.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['content-disposition']).toMatch(/^attachment; /);
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.headers['content-security-policy']).toBe("sandbox; default-src 'none'");

    const key = (await row(s._id))!.avatar!;
    const emoji = await call('PUT', `/api/v1/agent/${s._id}`, editor, { avatar: '🦉' });
    expect(SantitoSchema.parse(emoji.json())).toMatchObject({ avatar: '🦉', avatarUrl: null });
    expect((await call('GET', `/api/v1/agent/${s._id}/avatar`, viewer)).statusCode).toBe(404);
    expect(await t.ctx.services.storage.bucket('agents').stat(key)).toBeUndefined();
  });

  it('refuses other types (415) and images over 1 MiB (413)', async () => {
    const s = await create(editor, { name: 'Sem foto' });
    for (const [name, type, data] of [
      ['a.pdf', 'application/pdf', '%PDF-1.4'],
      ['a.svg', 'image/svg+xml', '<svg/>'],
      ['a.png', 'image/png', 'not a png'],
    ] as const) {
      expect((await uploadAvatar(editor, s._id, name, type, data)).statusCode).toBe(415);
    }
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(1024 * 1024)]);
    const res = await uploadAvatar(editor, s._id, 'big.png', 'image/png', big);
    expect(res.statusCode).toBe(413);
    expect((await row(s._id))?.avatarSize).toBeNull();
  });
});

describe('premium only and tenant isolation', () => {
  it('a caller whose domain is not premium gets 404 for everything, even an Admin', async () => {
    const foreign = await makeSantito(t.ctx, plainAdmin);
    for (const [method, url, body] of [
      ['GET', '/api/v1/agent'],
      ['POST', '/api/v1/agent', { name: 'x' }],
      ['GET', `/api/v1/agent/${foreign.id}`],
      ['PUT', `/api/v1/agent/${foreign.id}`, { name: 'y' }],
      ['DELETE', `/api/v1/agent/${foreign.id}`],
      ['GET', `/api/v1/agent/${foreign.id}/avatar`],
    ] as Array<[Method, string, object?]>) {
      const res = await call(method, url, plainAdmin, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await row(foreign.id))?.name).toBe(foreign.name);
  });

  it('a domain in the PREMIUM_DOMAINS allow-list is premium', async () => {
    const s = await create(listedEditor, { name: 'Listado' });
    expect(await listIds(listedEditor)).toEqual([s._id]);
  });

  it('users of another domain get 404 on every endpoint and change nothing', async () => {
    const s = await create(editor, { name: 'Interno' });
    await uploadAvatar(editor, s._id, 'a.png', 'image/png', TINY_PNG);
    const before = await row(s._id);
    for (const who of [otherEditor, otherAdmin]) {
      expect(await listIds(who)).not.toContain(s._id);
      for (const [method, url, body] of [
        ['GET', `/api/v1/agent/${s._id}`],
        ['PUT', `/api/v1/agent/${s._id}`, { name: 'Hacked' }],
        ['DELETE', `/api/v1/agent/${s._id}`],
        ['GET', `/api/v1/agent/${s._id}/avatar`],
      ] as Array<[Method, string, object?]>) {
        const res = await call(method, url, who, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(errorOf(res)).toMatchObject({ code: 'NOT_FOUND', message: 'Santito not found' });
      }
      expect((await uploadAvatar(who, s._id, 'b.png', 'image/png', TINY_PNG)).statusCode).toBe(404);
      // Nor can they start a chat with it.
      expect((await call('POST', '/api/v1/chats', who, { agentId: s._id })).statusCode).toBe(400);
    }
    expect(await row(s._id)).toEqual(before);
  });

  it('unauthenticated calls get 401', async () => {
    expect((await call('GET', '/api/v1/agent')).statusCode).toBe(401);
  });
});
