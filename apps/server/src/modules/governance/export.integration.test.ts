import { randomUUID } from 'node:crypto';
import {
  AuditEntrySchema,
  ChatExportSchema,
  type Export,
  ExportSchema,
  ShareSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, dataExports, memories } from '../../db/schema/index.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import { postFile, TINY_PNG } from '../../test/chats.ts';
import { makeChat, makeDepartment, makeDomain, makeUser, type TestUser } from '../../test/factories.ts';
import { unzip } from '../../test/zip.ts';

/**
 * Exports (docs/ARCHITECTURE.md#export-and-erasure): a person's own ZIP and an Admin's of a person
 * or a department hold every part (chats as JSON and Markdown, files byte for byte, prompts with
 * their versions, memories, links, a manifest); only whoever asked downloads it, until it expires;
 * an Admin's is audited and limited to their domain.
 */

let t: TestApp;
let person: TestUser;
let colleague: TestUser;
let viewerA: TestUser;
let editorA: TestUser;
let adminA: TestUser;
let adminB: TestUser;
let superAdmin: TestUser;
let sales: string;
let otherDepartment: string;
let chatId: string;
let shareUrl: string;
const NOTES = Buffer.from('Notas da reunião — ação: revisar o orçamento.\n', 'utf8');

const zipOf = async (url: string, who: TestUser) => {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  expect(String(res.headers['content-disposition'])).toMatch(/attachment; filename=".*\.zip"/);
  return unzip(res.rawPayload);
};
const json = (files: Map<string, Buffer>, name: string) => {
  const bytes = files.get(name);
  expect(bytes, `${name} in ${[...files.keys()].join(', ')}`).toBeDefined();
  return JSON.parse(bytes!.toString('utf8'));
};
const adminExport = async (who: TestUser, body: unknown) => t.call('POST', '/api/v1/export', who, body);

beforeAll(async () => {
  t = await buildTestApp();
  const a = await makeDomain(t.ctx);
  const b = await makeDomain(t.ctx);
  const salesDept = await makeDepartment(t.ctx, a.domain.id, 'Vendas');
  sales = salesDept.id;
  otherDepartment = b.department.id;
  person = await makeUser(t.ctx, { domain: a, department: salesDept, role: 'Editor', displayName: 'Paula' });
  colleague = await makeUser(t.ctx, { domain: a, department: salesDept, displayName: 'Caio' });
  viewerA = await makeUser(t.ctx, { domain: a, role: 'Viewer' });
  editorA = await makeUser(t.ctx, { domain: a, role: 'Editor' });
  adminA = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  adminB = await makeUser(t.ctx, { domain: b, role: 'Admin' });
  superAdmin = await makeUser(t.ctx, { domain: b, role: 'SuperAdmin' });

  const { chat } = await makeChat(t.ctx, person, {
    title: 'Plano de férias',
    messages: ['Quando tiro férias?', 'Em janeiro, segundo o calendário.'],
  });
  chatId = chat.id;
  await makeChat(t.ctx, person, { title: 'Orçamento/2026', messages: ['Qual o teto?'] });
  await makeChat(t.ctx, colleague, { title: 'Conversa do colega', messages: ['Segredo do colega'] });
  for (const file of [
    { name: 'foto.png', type: 'image/png', data: TINY_PNG },
    { name: 'notas.txt', type: 'text/plain', data: NOTES },
    { name: 'apagado.txt', type: 'text/plain', data: 'retention removed me' },
  ]) {
    const res = await postFile(t.app, `/api/v1/chats/${chatId}/attachments`, person, file);
    expect(res.statusCode, res.body).toBe(201);
  }
  // A file retention removed: the row stays, the bytes are gone, the export leaves it out.
  await t.ctx.db
    .update(attachments)
    .set({ removedAt: new Date() })
    .where(eq(attachments.name, 'apagado.txt'));

  const share = await t.call('POST', `/api/v1/chats/${chatId}/shares`, person, { audience: 'domain' });
  expect(share.statusCode, share.body).toBe(201);
  shareUrl = ShareSchema.parse(share.json()).url;
  const prompt = await t.call('POST', '/api/v1/prompts', person, {
    title: 'Resumo',
    command: 'resumo',
    content: 'Resuma em três linhas.',
  });
  expect(prompt.statusCode, prompt.body).toBe(201);
  const edited = await t.call('PUT', `/api/v1/prompts/${prompt.json().id}`, person, {
    content: 'Resuma em duas linhas.',
  });
  expect(edited.statusCode, edited.body).toBe(200);
  await t.ctx.db.insert(memories).values({
    id: randomUUID(),
    userId: person.user.id,
    domainId: a.domain.id,
    text: 'Prefere respostas curtas',
    source: 'user',
  });
});
afterAll(() => t.close());

describe('a person’s own export', () => {
  let mine: Export;

  it('is asked for and answers where to download it, for 24 hours', async () => {
    const res = await t.call('POST', '/api/v1/me/export', person);
    expect(res.statusCode, res.body).toBe(201);
    mine = ExportSchema.parse(res.json());
    expect(mine).toMatchObject({ scope: 'me', subjectId: person.user.id });
    expect(mine.downloadUrl).toBe(`/api/v1/me/export/${mine.exportId}`);
    const hours = (Date.parse(mine.expiresAt) - Date.parse(mine.createdAt)) / 3_600_000;
    expect(hours).toBe(24);
  });

  it('holds every chat as JSON and Markdown, the files byte for byte, prompts, memories, links and a manifest', async () => {
    const files = await zipOf(`${mine.downloadUrl}?timeZone=America/Sao_Paulo`, person);
    const names = [...files.keys()];
    const chats = names.filter((n) => n.startsWith('chats/'));
    expect(chats).toHaveLength(4);
    const base = chats
      .find((n) => n.includes('Plano de férias') && n.endsWith('.json'))!
      .slice(0, -'.json'.length);
    expect(base).toMatch(new RegExp(`^chats/\\d{4}-\\d{2}-\\d{2} Plano de férias ${chatId}$`));
    // A slash of a title never makes a folder.
    expect(chats.some((n) => /^chats\/\d{4}-\d{2}-\d{2} Orçamento 2026 [0-9a-f-]{36}\.md$/.test(n))).toBe(
      true,
    );

    const exported = ChatExportSchema.parse(json(files, `${base}.json`));
    expect(exported.chat).toMatchObject({ chatId, title: 'Plano de férias' });
    expect(exported.messages.map((m) => m.content)).toEqual([
      'Quando tiro férias?',
      'Em janeiro, segundo o calendário.',
    ]);
    const markdown = files.get(`${base}.md`)!.toString('utf8');
    expect(markdown).toContain('# Plano de férias');
    expect(markdown).toContain('Em janeiro, segundo o calendário.');

    const folder = base.replace(/^chats\//, 'files/');
    expect(files.get(`${folder}/foto.png`)?.equals(TINY_PNG)).toBe(true);
    expect(files.get(`${folder}/notas.txt`)?.equals(NOTES)).toBe(true);
    expect(names.filter((n) => n.startsWith('files/'))).toHaveLength(2);

    const prompts = json(files, 'prompts.json');
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ title: 'Resumo', command: 'resumo', version: 2, scope: 'private' });
    expect(prompts[0].versions.map((v: { content: string }) => v.content)).toEqual([
      'Resuma em duas linhas.',
      'Resuma em três linhas.',
    ]);
    expect(json(files, 'memories.json')).toMatchObject([
      { text: 'Prefere respostas curtas', source: 'user' },
    ]);
    expect(json(files, 'shares.json')).toMatchObject([
      { chatId, title: 'Plano de férias', audience: 'domain', views: 0, expiresAt: null, url: shareUrl },
    ]);
    const manifest = json(files, 'manifest.json');
    expect(manifest).toMatchObject({
      version: 1,
      exportId: mine.exportId,
      scope: 'me',
      subjectId: person.user.id,
    });
    expect(manifest.totals).toEqual({
      chats: 2,
      messages: 3,
      files: 2,
      fileBytes: TINY_PNG.length + NOTES.length,
      prompts: 1,
      memories: 1,
      shares: 1,
    });
    expect(Date.parse(manifest.exportedAt)).toBeGreaterThan(Date.now() - 60_000);
    // Nobody else's chats.
    expect(names.join('\n')).not.toContain('Conversa do colega');
  });

  it('is downloaded by the person who asked only; anyone else (an Admin too) gets 404', async () => {
    for (const who of [colleague, adminA, superAdmin]) {
      const res = await t.call('GET', mine.downloadUrl, who);
      expect(res.statusCode, res.body).toBe(404);
      expect(errorOf(res).code).toBe('NOT_FOUND');
    }
    // Not through the Admins' route either, nor with a made-up id.
    expect((await t.call('GET', `/api/v1/export/${mine.exportId}`, adminA)).statusCode).toBe(404);
    expect((await t.call('GET', '/api/v1/me/export/exp_nothing', person)).statusCode).toBe(404);
    expect((await t.call('GET', mine.downloadUrl, null)).statusCode).toBe(401);
  });

  it('answers 404 once expired', async () => {
    await t.ctx.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, mine.exportId));
    const res = await t.call('GET', mine.downloadUrl, person);
    expect(res.statusCode).toBe(404);
  });
});

describe('an Admin’s export of a person or a department', () => {
  it('Viewers and Editors are refused; an Admin of another domain finds nobody; bad input is a 400', async () => {
    for (const who of [viewerA, editorA, person]) {
      const res = await adminExport(who, { userId: colleague.user.id });
      expect(res.statusCode).toBe(403);
    }
    expect(errorOf(await adminExport(adminB, { userId: person.user.id })).code).toBe('USER_NOT_FOUND');
    expect(errorOf(await adminExport(adminB, { departmentId: sales })).code).toBe('DEPARTMENT_NOT_FOUND');
    expect(errorOf(await adminExport(adminA, { departmentId: otherDepartment })).code).toBe(
      'DEPARTMENT_NOT_FOUND',
    );
    expect(errorOf(await adminExport(adminA, { userId: 'nobody@example.com' })).code).toBe('USER_NOT_FOUND');
    for (const body of [{}, { userId: '' }, { userId: person.user.id, departmentId: sales }, { user: 'x' }]) {
      const res = await adminExport(adminA, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    // None of these left an export or an audit row.
    const rows = await t.ctx.db.select().from(dataExports).where(eq(dataExports.scope, 'user'));
    expect(rows).toEqual([]);
    const audit = await t.call('GET', '/api/v1/audit?action=export.create', superAdmin);
    expect(audit.json()).toEqual([]);
  });

  it('an Admin of the domain exports a person: audited, downloaded by them alone', async () => {
    const res = await adminExport(adminA, { userId: person.user.id.toUpperCase() });
    expect(res.statusCode, res.body).toBe(201);
    const made = ExportSchema.parse(res.json());
    expect(made).toMatchObject({ scope: 'user', subjectId: person.user.id });
    expect(made.downloadUrl).toBe(`/api/v1/export/${made.exportId}`);

    const files = await zipOf(made.downloadUrl, adminA);
    expect([...files.keys()].filter((n) => n.startsWith('chats/'))).toHaveLength(4);
    expect(json(files, 'manifest.json').people).toMatchObject([{ id: person.user.id, folder: '' }]);
    for (const who of [superAdmin, person, editorA]) {
      expect((await t.call('GET', made.downloadUrl, who)).statusCode).not.toBe(200);
    }
    expect((await t.call('GET', `/api/v1/me/export/${made.exportId}`, adminA)).statusCode).toBe(404);

    const audit = await t.call('GET', '/api/v1/audit?action=export.create', adminA);
    expect(audit.statusCode).toBe(200);
    const [entry] = AuditEntrySchema.array().parse(audit.json());
    expect(entry).toMatchObject({
      action: 'export.create',
      actor: { id: adminA.user.id },
      target: { type: 'user', id: person.user.id },
    });
  });

  it('a SuperAdmin exports a department of any domain: one folder a person', async () => {
    const res = await adminExport(superAdmin, { departmentId: sales });
    expect(res.statusCode, res.body).toBe(201);
    const made = ExportSchema.parse(res.json());
    expect(made).toMatchObject({ scope: 'department', subjectId: sales });
    const files = await zipOf(made.downloadUrl, superAdmin);
    const names = [...files.keys()];
    const manifest = json(files, 'manifest.json');
    expect(manifest.people.map((p: { id: string }) => p.id).sort()).toEqual(
      [person.user.id, colleague.user.id].sort(),
    );
    expect(names.filter((n) => n.startsWith(`${person.user.email}/chats/`))).toHaveLength(4);
    const theirs = names.filter((n) => n.startsWith(`${colleague.user.email}/chats/`));
    expect(theirs).toHaveLength(2);
    expect(files.get(theirs.find((n) => n.endsWith('.md'))!)?.toString('utf8')).toContain(
      'Segredo do colega',
    );
    expect(json(files, `${colleague.user.email}/memories.json`)).toEqual([]);
    expect(manifest.totals.chats).toBe(3);
    const audit = AuditEntrySchema.array().parse(
      (await t.call('GET', '/api/v1/audit?action=export.create&targetType=department', superAdmin)).json(),
    );
    expect(audit.map((e) => e.target)).toEqual([{ type: 'department', id: sales }]);
  });
});

describe('a file the store lost', () => {
  it('is named in the manifest, and the rest of the export still arrives', async () => {
    const [photo] = await t.ctx.db.select().from(attachments).where(eq(attachments.name, 'foto.png'));
    await t.ctx.services.storage.bucket('chats').delete(photo!.storageKey);
    const made = ExportSchema.parse((await t.call('POST', '/api/v1/me/export', person)).json());
    const files = await zipOf(made.downloadUrl, person);
    const stored = [...files.keys()].filter((n) => n.startsWith('files/'));
    expect(stored.map((n) => n.split('/').at(-1))).toEqual(['notas.txt']);
    const [who] = json(files, 'manifest.json').people;
    expect(who.missingFiles).toEqual([expect.stringMatching(/^files\/.* Plano de férias .*\/foto\.png$/)]);
    expect(who.counts.files).toBe(1);
  });
});
