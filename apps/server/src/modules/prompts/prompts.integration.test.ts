import {
  ApiKeyCreatedSchema,
  type Prompt,
  PromptLimits,
  PromptSchema,
  type PromptScope,
  PromptVersionSchema,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditEntries, promptVersions } from '../../db/schema/index.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import { visitorToken } from '../../test/embedded.ts';
import {
  type DepartmentRow,
  makeDepartment,
  makeDomain,
  makeUser,
  type TestUser,
} from '../../test/factories.ts';

const BASE = '/api/v1/prompts';

let t: TestApp;

/** One domain with two departments, a person of each role in the first and an Editor and Admin in the second. */
async function org() {
  const dom = await makeDomain(t.ctx, { premium: true, department: 'Sales' });
  const d1 = dom.department;
  const d2 = await makeDepartment(t.ctx, dom.domain.id, 'Legal');
  const person = (
    role: 'Viewer' | 'Editor' | 'Admin' | 'SuperAdmin',
    department: DepartmentRow,
    name: string,
  ) => makeUser(t.ctx, { domain: dom, role, department, displayName: name });
  return {
    dom,
    d1,
    d2,
    viewer: await person('Viewer', d1, 'Vera Viewer'),
    viewer2: await person('Viewer', d1, 'Vito Viewer'),
    editor: await person('Editor', d1, 'Edna Editor'),
    editor2: await person('Editor', d1, 'Enzo Editor'),
    admin: await person('Admin', d1, 'Ada Admin'),
    superAdmin: await person('SuperAdmin', d1, 'Sol Super'),
    otherEditor: await person('Editor', d2, 'Lia Legal'),
    otherAdmin: await person('Admin', d2, 'Leo Legal'),
  };
}
type Org = Awaited<ReturnType<typeof org>>;

async function make(
  who: TestUser,
  body: { title?: string; command?: string; content?: string; scope?: PromptScope },
): Promise<Prompt> {
  const res = await t.call('POST', BASE, who, {
    title: body.title ?? `Prompt ${body.command ?? 'x'}`,
    command: body.command ?? `p-${Math.random().toString(36).slice(2, 10)}`,
    content: body.content ?? 'Summarise {{topic}} for {{audience}}',
    ...(body.scope ? { scope: body.scope } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return PromptSchema.parse(res.json());
}

async function listAll(who: TestUser, query = ''): Promise<Prompt[]> {
  const res = await t.call('GET', `${BASE}?limit=200${query}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return z.array(PromptSchema).parse(res.json());
}

async function versionsOf(who: TestUser, id: string) {
  const res = await t.call('GET', `${BASE}/${id}/versions`, who);
  expect(res.statusCode, res.body).toBe(200);
  return z.array(PromptVersionSchema).parse(res.json());
}

const auditOf = (id: string) => t.ctx.db.select().from(auditEntries).where(eq(auditEntries.targetId, id));

beforeAll(async () => {
  t = await buildTestApp();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('who sees, writes, changes and deletes prompts, role by role and scope by scope', () => {
  let o: Org;
  let outsider: TestUser;
  let outsideSuperAdmin: TestUser;
  /** The Viewer's private prompt, the Editor's department prompt (Sales), the Admin's domain prompt. */
  let own: Record<PromptScope, Prompt>;

  type Who = keyof Omit<Org, 'dom' | 'd1' | 'd2'> | 'outsider' | 'outsideSuperAdmin';
  const person = (who: Who): TestUser =>
    who === 'outsider' ? outsider : who === 'outsideSuperAdmin' ? outsideSuperAdmin : o[who];

  // What each person may do to each of the three prompts: see it, change it, write its scope.
  const table: Array<{ who: Who; sees: PromptScope[]; edits: PromptScope[]; writes: PromptScope[] }> = [
    { who: 'viewer', sees: ['private', 'department', 'domain'], edits: ['private'], writes: ['private'] },
    { who: 'viewer2', sees: ['department', 'domain'], edits: [], writes: ['private'] },
    {
      who: 'editor',
      sees: ['department', 'domain'],
      edits: ['department'],
      writes: ['private', 'department'],
    },
    {
      who: 'editor2',
      sees: ['department', 'domain'],
      edits: ['department'],
      writes: ['private', 'department'],
    },
    {
      who: 'admin',
      sees: ['department', 'domain'],
      edits: ['department', 'domain'],
      writes: ['private', 'department', 'domain'],
    },
    {
      who: 'superAdmin',
      sees: ['department', 'domain'],
      edits: ['department', 'domain'],
      writes: ['private', 'department', 'domain'],
    },
    // Another department: its Editor neither sees nor changes Sales' prompt.
    { who: 'otherEditor', sees: ['domain'], edits: [], writes: ['private', 'department'] },
    { who: 'otherAdmin', sees: ['domain'], edits: ['domain'], writes: ['private', 'department', 'domain'] },
    // Another domain, a SuperAdmin there included: nothing at all.
    { who: 'outsider', sees: [], edits: [], writes: ['private', 'department', 'domain'] },
    { who: 'outsideSuperAdmin', sees: [], edits: [], writes: ['private', 'department', 'domain'] },
  ];
  const scopes: PromptScope[] = ['private', 'department', 'domain'];

  beforeAll(async () => {
    o = await org();
    outsider = await makeUser(t.ctx, { role: 'Admin' });
    outsideSuperAdmin = await makeUser(t.ctx, { role: 'SuperAdmin' });
    own = {
      private: await make(o.viewer, { title: 'Mine', command: 'mine' }),
      department: await make(o.editor, { title: 'Sales pitch', command: 'pitch', scope: 'department' }),
      domain: await make(o.admin, { title: 'House style', command: 'style', scope: 'domain' }),
    };
  });

  it.each(table)('$who sees, lists and may change what the rules say', async ({ who, sees, edits }) => {
    const me = person(who);
    const listed = await listAll(me);
    expect(listed.map((p) => p.id).filter((id) => Object.values(own).some((p) => p.id === id))).toEqual(
      sees.map((s) => own[s].id),
    );
    for (const scope of scopes) {
      const prompt = own[scope];
      const got = await t.call('GET', `${BASE}/${prompt.id}`, me);
      expect(got.statusCode, `${who} GET ${scope}`).toBe(sees.includes(scope) ? 200 : 404);
      if (got.statusCode === 200) {
        expect(PromptSchema.parse(got.json()).editable, `${who} editable ${scope}`).toBe(
          edits.includes(scope),
        );
      }
      // Nothing changed: the right is checked, and no version is made.
      const put = await t.call('PUT', `${BASE}/${prompt.id}`, me, { title: prompt.title });
      expect(put.statusCode, `${who} PUT ${scope}`).toBe(
        edits.includes(scope) ? 200 : sees.includes(scope) ? 403 : 404,
      );
      const versions = await t.call('GET', `${BASE}/${prompt.id}/versions`, me);
      expect(versions.statusCode, `${who} versions ${scope}`).toBe(sees.includes(scope) ? 200 : 404);
    }
  });

  it.each(table)('$who writes prompts of the scopes the rules say', async ({ who, writes }) => {
    const me = person(who);
    for (const scope of scopes) {
      const res = await t.call('POST', BASE, me, {
        title: `By ${who}`,
        command: `by-${who.toLowerCase()}`,
        content: 'Hello',
        scope,
      });
      expect(res.statusCode, `${who} POST ${scope}: ${res.body}`).toBe(writes.includes(scope) ? 201 : 403);
      if (res.statusCode === 201) {
        const made = PromptSchema.parse(res.json());
        expect(made).toMatchObject({ scope, version: 1, editable: true, authorName: me.user.displayName });
        expect(made.departmentId).toBe(scope === 'department' ? me.user.departmentId : null);
      }
    }
  });

  it.each(table)('$who deletes what the rules say', async ({ who, sees, edits }) => {
    const me = person(who);
    const fresh: Record<PromptScope, Prompt> = {
      private: await make(o.viewer, {}),
      department: await make(o.editor, { scope: 'department' }),
      domain: await make(o.admin, { scope: 'domain' }),
    };
    for (const scope of scopes) {
      const res = await t.call('DELETE', `${BASE}/${fresh[scope].id}`, me);
      expect(res.statusCode, `${who} DELETE ${scope}`).toBe(
        edits.includes(scope) ? 204 : sees.includes(scope) ? 403 : 404,
      );
      const still = await t.call('GET', `${BASE}/${fresh[scope].id}`, o.admin);
      expect(still.statusCode).toBe(edits.includes(scope) || scope === 'private' ? 404 : 200);
    }
  });

  it('another domain sees none of these prompts, whatever it asks for', async () => {
    for (const who of [outsider, outsideSuperAdmin]) {
      const ids = new Set((await listAll(who)).map((p) => p.id));
      for (const p of Object.values(own)) {
        expect(ids.has(p.id)).toBe(false);
        for (const [method, url, body] of [
          ['GET', `${BASE}/${p.id}`, undefined],
          ['PUT', `${BASE}/${p.id}`, { content: 'Taken over' }],
          ['DELETE', `${BASE}/${p.id}`, undefined],
          ['GET', `${BASE}/${p.id}/versions`, undefined],
          ['POST', `${BASE}/${p.id}/versions/1/restore`, undefined],
        ] as const) {
          const res = await t.call(method, url, who, body);
          expect(res.statusCode, `${method} ${url}`).toBe(404);
          expect(errorOf(res).code).toBe('NOT_FOUND');
        }
      }
      // The client's domain hint changes nothing.
      const hinted = await t.call('GET', `${BASE}?domain=${o.dom.domain.id}`, who);
      expect(
        z
          .array(PromptSchema)
          .parse(hinted.json())
          .some((p) => p.id === own.domain.id),
      ).toBe(false);
    }
  });

  it('moving a prompt to another scope needs that scope’s right; only its author makes it private', async () => {
    const mine = await make(o.viewer, { command: 'to-move' });
    const refused = await t.call('PUT', `${BASE}/${mine.id}`, o.viewer, { scope: 'department' });
    expect(refused.statusCode).toBe(403);

    const editors = await make(o.editor, { command: 'editors' });
    const moved = await t.call('PUT', `${BASE}/${editors.id}`, o.editor, { scope: 'department' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(PromptSchema.parse(moved.json())).toMatchObject({
      scope: 'department',
      departmentId: o.d1.id,
      version: 2,
    });
    // A colleague Editor changes it, but cannot make it someone's private prompt, nor the domain's.
    expect((await t.call('PUT', `${BASE}/${editors.id}`, o.editor2, { content: 'Better' })).statusCode).toBe(
      200,
    );
    expect((await t.call('PUT', `${BASE}/${editors.id}`, o.editor2, { scope: 'private' })).statusCode).toBe(
      403,
    );
    expect((await t.call('PUT', `${BASE}/${editors.id}`, o.editor2, { scope: 'domain' })).statusCode).toBe(
      403,
    );
    // An Admin makes it the domain's; an Admin of Legal then takes it to Legal.
    const domainWide = await t.call('PUT', `${BASE}/${editors.id}`, o.admin, { scope: 'domain' });
    expect(PromptSchema.parse(domainWide.json())).toMatchObject({ scope: 'domain', departmentId: null });
    const legal = await t.call('PUT', `${BASE}/${editors.id}`, o.otherAdmin, { scope: 'department' });
    expect(PromptSchema.parse(legal.json())).toMatchObject({ scope: 'department', departmentId: o.d2.id });
    // Sales no longer sees it; its author still does, and takes it back as private.
    expect((await t.call('GET', `${BASE}/${editors.id}`, o.editor2)).statusCode).toBe(404);
    const back = await t.call('PUT', `${BASE}/${editors.id}`, o.editor, { scope: 'private' });
    expect(PromptSchema.parse(back.json())).toMatchObject({ scope: 'private', departmentId: null });
    expect((await t.call('GET', `${BASE}/${editors.id}`, o.otherAdmin)).statusCode).toBe(404);
  });

  it('audits department and domain prompts, never private ones', async () => {
    const mine = await make(o.editor, { command: 'audit-me' });
    await t.call('PUT', `${BASE}/${mine.id}`, o.editor, { content: 'Still mine' });
    expect(await auditOf(mine.id)).toEqual([]);

    const shared = await t.call('PUT', `${BASE}/${mine.id}`, o.editor, { scope: 'department' });
    expect(shared.statusCode).toBe(200);
    const dept = await make(o.editor, { command: 'audit-dept', scope: 'department' });
    await t.call('PUT', `${BASE}/${dept.id}`, o.admin, { content: 'Reviewed by the Admin' });
    await t.call('DELETE', `${BASE}/${dept.id}`, o.admin);
    const entries = await auditOf(dept.id);
    expect(entries.map((e) => e.action).sort()).toEqual(['prompt.create', 'prompt.delete', 'prompt.update']);
    const update = entries.find((e) => e.action === 'prompt.update');
    expect(update).toMatchObject({
      domainId: o.dom.domain.id,
      actorId: o.admin.user.id,
      targetType: 'prompt',
      before: { content: 'Summarise {{topic}} for {{audience}}', version: 1 },
      after: { content: 'Reviewed by the Admin', version: 2 },
    });
    const [moved] = await auditOf(mine.id);
    expect(moved).toMatchObject({
      action: 'prompt.update',
      before: { scope: 'private' },
      after: { scope: 'department' },
    });
  });
});

describe('versions and rollback', () => {
  let o: Org;
  beforeAll(async () => {
    o = await org();
  });

  it('each change is a version, listed newest first; a restore is a new version with the old fields', async () => {
    const p = await make(o.editor, {
      title: 'Draft',
      command: 'draft',
      content: 'One {{a}}',
      scope: 'department',
    });
    const v2 = PromptSchema.parse(
      (await t.call('PUT', `${BASE}/${p.id}`, o.editor, { content: 'Two {{b}} {{c}} {{b}}' })).json(),
    );
    expect(v2).toMatchObject({ version: 2, variables: ['b', 'c'], createdAt: p.createdAt });
    // An Admin's change is theirs in the history; the prompt keeps its author.
    const v3 = PromptSchema.parse(
      (await t.call('PUT', `${BASE}/${p.id}`, o.admin, { title: 'Final', command: 'final' })).json(),
    );
    expect(v3).toMatchObject({ version: 3, title: 'Final', command: 'final', authorName: 'Edna Editor' });

    const history = await versionsOf(o.viewer, p.id);
    expect(history.map((v) => [v.version, v.title, v.command, v.content, v.authorName])).toEqual([
      [3, 'Final', 'final', 'Two {{b}} {{c}} {{b}}', 'Ada Admin'],
      [2, 'Draft', 'draft', 'Two {{b}} {{c}} {{b}}', 'Edna Editor'],
      [1, 'Draft', 'draft', 'One {{a}}', 'Edna Editor'],
    ]);

    const restored = await t.call('POST', `${BASE}/${p.id}/versions/1/restore`, o.editor);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(PromptSchema.parse(restored.json())).toMatchObject({
      id: p.id,
      version: 4,
      title: 'Draft',
      command: 'draft',
      content: 'One {{a}}',
      variables: ['a'],
    });
    expect((await versionsOf(o.editor, p.id)).map((v) => [v.version, v.content])).toEqual([
      [4, 'One {{a}}'],
      [3, 'Two {{b}} {{c}} {{b}}'],
      [2, 'Two {{b}} {{c}} {{b}}'],
      [1, 'One {{a}}'],
    ]);
    const rollback = (await auditOf(p.id)).find(
      (e) => e.action === 'prompt.update' && e.after?.version === 4,
    );
    expect(rollback).toMatchObject({
      actorId: o.editor.user.id,
      before: { version: 3, content: 'Two {{b}} {{c}} {{b}}' },
      after: { version: 4, content: 'One {{a}}' },
    });

    // Restoring what is current already, or a change that changes nothing, makes no version.
    expect(
      PromptSchema.parse((await t.call('POST', `${BASE}/${p.id}/versions/4/restore`, o.editor)).json())
        .version,
    ).toBe(4);
    expect(
      PromptSchema.parse((await t.call('PUT', `${BASE}/${p.id}`, o.editor, { content: 'One {{a}}' })).json())
        .version,
    ).toBe(4);
    expect(await versionsOf(o.editor, p.id)).toHaveLength(4);

    // A Viewer of the department reads the history, but cannot roll back.
    expect((await t.call('POST', `${BASE}/${p.id}/versions/2/restore`, o.viewer)).statusCode).toBe(403);
    const missing = await t.call('POST', `${BASE}/${p.id}/versions/99/restore`, o.editor);
    expect(missing.statusCode).toBe(404);
    expect((await t.call('POST', `${BASE}/${p.id}/versions/0/restore`, o.editor)).statusCode).toBe(400);
  });

  it('a restore follows the scope rules of the version it brings back', async () => {
    const p = await make(o.editor, { command: 'once-private' });
    await t.call('PUT', `${BASE}/${p.id}`, o.editor, { scope: 'department' });
    // The version 1 was the author's private prompt: a colleague cannot bring that back.
    expect((await t.call('POST', `${BASE}/${p.id}/versions/1/restore`, o.editor2)).statusCode).toBe(403);
    const back = await t.call('POST', `${BASE}/${p.id}/versions/1/restore`, o.editor);
    expect(PromptSchema.parse(back.json())).toMatchObject({
      scope: 'private',
      version: 3,
      departmentId: null,
    });
  });

  it(`keeps the newest ${PromptLimits.versionsKept} versions and drops older ones`, async () => {
    const p = await make(o.viewer, { command: 'busy', content: 'v1' });
    const changes = PromptLimits.versionsKept + 2;
    for (let i = 2; i <= changes + 1; i++) {
      const res = await t.call('PUT', `${BASE}/${p.id}`, o.viewer, { content: `v${i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const history = await versionsOf(o.viewer, p.id);
    expect(history).toHaveLength(PromptLimits.versionsKept);
    expect(history[0]).toMatchObject({ version: changes + 1, content: `v${changes + 1}` });
    expect(history.at(-1)).toMatchObject({ version: changes + 2 - PromptLimits.versionsKept });
    expect((await t.call('POST', `${BASE}/${p.id}/versions/1/restore`, o.viewer)).statusCode).toBe(404);
  });

  it('deleting a prompt deletes its versions', async () => {
    const p = await make(o.viewer, { command: 'short-lived' });
    await t.call('PUT', `${BASE}/${p.id}`, o.viewer, { content: 'Second' });
    expect((await t.call('DELETE', `${BASE}/${p.id}`, o.viewer)).statusCode).toBe(204);
    expect(await t.ctx.db.select().from(promptVersions).where(eq(promptVersions.promptId, p.id))).toEqual([]);
    expect((await t.call('GET', `${BASE}/${p.id}/versions`, o.viewer)).statusCode).toBe(404);
    expect((await t.call('DELETE', `${BASE}/${p.id}`, o.viewer)).statusCode).toBe(404);
  });
});

describe('commands', () => {
  let o: Org;
  beforeAll(async () => {
    o = await org();
  });

  it('are unique among the prompts of one owner scope, and may repeat across scopes', async () => {
    await make(o.editor, { title: 'Mine', command: 'summary' });
    const again = await t.call('POST', BASE, o.editor, { title: 'Again', command: 'summary', content: 'x' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toMatchObject({ code: 'CONFLICT', details: [{ path: 'command' }] });
    // Another person's private prompts, the department's and the domain's are other scopes.
    await make(o.viewer, { title: 'Vera’s', command: 'summary' });
    await make(o.editor2, { title: 'Sales', command: 'summary', scope: 'department' });
    await make(o.otherEditor, { title: 'Legal', command: 'summary', scope: 'department' });
    await make(o.admin, { title: 'House', command: 'summary', scope: 'domain' });
    const dept = await t.call('POST', BASE, o.editor, {
      title: 'Sales again',
      command: 'summary',
      content: 'x',
      scope: 'department',
    });
    expect(dept.statusCode).toBe(409);
    const dom = await t.call('POST', BASE, o.otherAdmin, {
      title: 'House again',
      command: 'summary',
      content: 'x',
      scope: 'domain',
    });
    expect(dom.statusCode).toBe(409);

    // The picker lists each, private first, then the department's, then the domain's.
    const picked = await listAll(o.editor, '&q=summary');
    expect(picked.map((p) => [p.scope, p.title])).toEqual([
      ['private', 'Mine'],
      ['department', 'Sales'],
      ['domain', 'House'],
    ]);
  });

  it('a change or a move onto a taken command is refused and changes nothing', async () => {
    const a = await make(o.viewer, { command: 'first' });
    const b = await make(o.viewer, { command: 'second' });
    const clash = await t.call('PUT', `${BASE}/${b.id}`, o.viewer, { command: 'first', content: 'New' });
    expect(clash.statusCode).toBe(409);
    expect(PromptSchema.parse((await t.call('GET', `${BASE}/${b.id}`, o.viewer)).json())).toMatchObject({
      command: 'second',
      version: 1,
      content: b.content,
    });
    await make(o.editor, { command: 'shared', scope: 'department' });
    const mine = await make(o.editor2, { command: 'shared' });
    const move = await t.call('PUT', `${BASE}/${mine.id}`, o.editor2, { scope: 'department' });
    expect(move.statusCode).toBe(409);
    expect((await t.call('PUT', `${BASE}/${a.id}`, o.viewer, { command: 'first' })).statusCode).toBe(200);
  });

  it('two writers racing for one command: one wins, the other is told', async () => {
    const results = await Promise.all(
      [o.editor, o.editor2, o.admin].map((who) =>
        t.call('POST', BASE, who, { title: 'Race', command: 'race', content: 'Go', scope: 'department' }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });
});

describe('the list: search, filter, order and pages', () => {
  let o: Org;
  beforeAll(async () => {
    o = await org();
    await make(o.viewer, { title: 'Relatório mensal', command: 'monthly' });
    await make(o.viewer, { title: 'relatorio semanal', command: 'weekly' });
    await make(o.viewer, { title: '100% done', command: 'done' });
    await make(o.editor, { title: 'Ata de reunião', command: 'minutes', scope: 'department' });
    await make(o.admin, { title: 'Boas-vindas', command: 'welcome', scope: 'domain' });
    await make(o.admin, { title: 'Assinatura', command: 'relatorio-anual', scope: 'domain' });
    await make(o.otherEditor, { title: 'Relatório jurídico', command: 'legal', scope: 'department' });
  });

  it('orders by scope (private, department, domain) then title', async () => {
    expect((await listAll(o.viewer)).map((p) => p.title)).toEqual([
      '100% done',
      'Relatório mensal',
      'relatorio semanal',
      'Ata de reunião',
      'Assinatura',
      'Boas-vindas',
    ]);
  });

  it('q matches title or command, ignoring case and accents; % and _ are plain characters', async () => {
    const titles = async (q: string) =>
      (await listAll(o.viewer, `&q=${encodeURIComponent(q)}`)).map((p) => p.title);
    expect(await titles('RELATORIO')).toEqual(['Relatório mensal', 'relatorio semanal', 'Assinatura']);
    expect(await titles('relatório')).toEqual(['Relatório mensal', 'relatorio semanal', 'Assinatura']);
    expect(await titles('REUNIAO')).toEqual(['Ata de reunião']);
    expect(await titles('%')).toEqual(['100% done']);
    expect(await titles('_')).toEqual([]);
    expect(await titles('week')).toEqual(['relatorio semanal']);
  });

  it('scope filters by scope', async () => {
    expect((await listAll(o.viewer, '&scope=domain')).map((p) => p.command)).toEqual([
      'relatorio-anual',
      'welcome',
    ]);
    expect((await listAll(o.otherEditor, '&scope=department')).map((p) => p.command)).toEqual(['legal']);
  });

  it('pages with X-Next-Cursor to the same list, and refuses a cursor it did not make', async () => {
    const all = await listAll(o.viewer);
    const seen: Prompt[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.call(
        'GET',
        `${BASE}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        o.viewer,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe(String(all.length));
      seen.push(...z.array(PromptSchema).parse(res.json()));
      cursor = res.headers['x-next-cursor'] as string | undefined;
    } while (cursor);
    expect(seen.map((p) => p.id)).toEqual(all.map((p) => p.id));
    const bad = await t.call('GET', `${BASE}?cursor=not-a-cursor`, o.viewer);
    expect(bad.statusCode).toBe(400);
  });
});

describe('bad requests and other callers', () => {
  let o: Org;
  beforeAll(async () => {
    o = await org();
  });

  it('refuses bad bodies with 400 naming the field, and changes nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ title: 'X', command: 'Bad Command', content: 'x' }, 'command'],
      [{ title: '', command: 'ok', content: 'x' }, 'title'],
      [{ title: 'X', command: 'ok', content: '' }, 'content'],
      [{ title: 'X', command: 'ok', content: 'x', scope: 'world' }, 'scope'],
      [{ title: 'x'.repeat(PromptLimits.titleMax + 1), command: 'ok', content: 'x' }, 'title'],
      [{ title: 'X', command: 'ok', content: 'x', author: 'someone' }, ''],
    ];
    for (const [body, field] of cases) {
      const res = await t.call('POST', BASE, o.viewer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
      if (field) expect(errorOf(res).message.startsWith(`${field}:`), errorOf(res).message).toBe(true);
    }
    expect(await listAll(o.viewer)).toEqual([]);
    const p = await make(o.viewer, { command: 'kept' });
    expect((await t.call('PUT', `${BASE}/${p.id}`, o.viewer, {})).statusCode).toBe(400);
    expect((await t.call('PUT', `${BASE}/${p.id}`, o.viewer, { command: 'UPPER' })).statusCode).toBe(400);
    expect((await t.call('GET', `${BASE}/no-such-prompt`, o.viewer)).statusCode).toBe(404);
    expect((await t.call('GET', `${BASE}?scope=world`, o.viewer)).statusCode).toBe(400);
  });

  it('refuses visitors of an embed, API keys and the signed-out', async () => {
    const p = await make(o.admin, { command: 'public-ish', scope: 'domain' });
    const site = 'https://shop.example.com';
    const made = await t.call('POST', '/api/v1/virtual_account', o.admin, {
      displayName: 'Loja',
      allowedOrigins: [site],
    });
    expect(made.statusCode, made.body).toBe(201);
    const va = VirtualAccountWithSecretSchema.parse(made.json());
    const visitor = {
      headers: { authorization: `Bearer ${await visitorToken(t.app, va.virtualAccountId, site)}` },
    };
    const keyRes = await t.call('POST', '/api/v1/api_keys', o.admin, { name: 'prompts' });
    expect(keyRes.statusCode, keyRes.body).toBe(201);
    const apiKey = {
      headers: { authorization: `Bearer ${ApiKeyCreatedSchema.parse(keyRes.json()).secret}` },
    };
    for (const who of [visitor, apiKey, null]) {
      for (const [method, url] of [
        ['GET', BASE],
        ['GET', `${BASE}/${p.id}`],
        ['POST', BASE],
        ['DELETE', `${BASE}/${p.id}`],
      ] as const) {
        const res = await t.call(
          method,
          url,
          who,
          method === 'POST' ? { title: 'X', command: 'x', content: 'x' } : undefined,
        );
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    }
    expect((await t.call('GET', `${BASE}/${p.id}`, o.viewer)).statusCode).toBe(200);
    expect(
      await t.ctx.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.targetId, p.id), eq(auditEntries.action, 'prompt.delete'))),
    ).toEqual([]);
  });
});
