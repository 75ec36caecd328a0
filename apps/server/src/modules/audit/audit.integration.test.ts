import { AuditEntrySchema, ErrorBodySchema, UserSchema } from '@assistente/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let adminA: TestUser;
let adminB: TestUser;
let superAdmin: TestUser;
let target: TestUser;

function get(url: string, who: TestUser, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { ...who.headers, ...headers } });
}
const entries = (body: unknown) => AuditEntrySchema.array().parse(body);

beforeAll(async () => {
  t = await buildTestApp({ TRUST_PROXY: 'true' });
  a = await makeDomain(t.ctx);
  b = await makeDomain(t.ctx);
  adminA = await makeUser(t.ctx, { role: 'Admin', domain: a });
  adminB = await makeUser(t.ctx, { role: 'Admin', domain: b });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin', domain: a });
  target = await makeUser(t.ctx, { domain: a, withPassword: false });
  // A few changes in each domain, from known addresses.
  const record = UserSchema.parse((await get(`/api/v1/user/${target.user.id}`, adminA)).json());
  const put = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/user/${target.user.id}`,
    headers: { ...adminA.headers, 'x-forwarded-for': '203.0.113.7', 'user-agent': 'AuditTest/1' },
    payload: { ...record, role: 'Editor' },
  });
  expect(put.statusCode, put.body).toBe(200);
  for (const who of [adminA, adminA, adminB]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/department',
      headers: who.headers,
      payload: { displayName: `Dept ${Math.random()}` },
    });
    expect(res.statusCode).toBe(201);
  }
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/v1/audit', () => {
  it('records who, what, before → after, when and from which IP', async () => {
    const res = await get(`/api/v1/audit?action=user.update&targetId=${target.user.id}`, adminA);
    expect(res.statusCode).toBe(200);
    const [entry] = entries(res.json());
    expect(entry).toMatchObject({
      domain: a.domain.id,
      actor: { id: adminA.user.id, email: adminA.user.email },
      action: 'user.update',
      target: { type: 'user', id: target.user.id },
      before: { role: 'Viewer' },
      after: { role: 'Editor' },
      ip: '203.0.113.7',
    });
    expect(Object.keys(entry?.before ?? {})).toEqual(['role']);
    expect(Date.now() - Date.parse(entry?.at ?? '')).toBeLessThan(60_000);
  });

  it('an Admin reads only their domain’s log, whatever the hints say; a SuperAdmin reads all or one', async () => {
    const mine = entries(
      (await get(`/api/v1/audit?domain=${b.domain.id}`, adminA, { domain: b.domain.id })).json(),
    );
    expect(mine.length).toBe(3);
    expect(mine.every((e) => e.domain === a.domain.id)).toBe(true);
    const theirs = entries((await get('/api/v1/audit', adminB)).json());
    expect(theirs.map((e) => e.domain)).toEqual([b.domain.id]);
    const all = entries((await get('/api/v1/audit', superAdmin)).json());
    expect(new Set(all.map((e) => e.domain))).toEqual(new Set([a.domain.id, b.domain.id]));
    const one = entries((await get(`/api/v1/audit?domain=${b.domain.id}`, superAdmin)).json());
    expect(one.map((e) => e.domain)).toEqual([b.domain.id]);
  });

  it('filters by action, actor, target type and date range', async () => {
    const deps = entries((await get('/api/v1/audit?action=department.create', adminA)).json());
    expect(deps).toHaveLength(2);
    const byActor = entries(
      (await get(`/api/v1/audit?actor=${adminA.user.id.toUpperCase()}`, superAdmin)).json(),
    );
    expect(byActor).toHaveLength(3);
    const byType = entries((await get('/api/v1/audit?targetType=user', adminA)).json());
    expect(byType.map((e) => e.action)).toEqual(['user.update']);
    const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    expect(entries((await get(`/api/v1/audit?from=${future}`, adminA)).json())).toEqual([]);
    expect(entries((await get(`/api/v1/audit?to=${future}`, adminA)).json())).toHaveLength(3);
    const past = encodeURIComponent('2000-01-01T00:00:00Z');
    expect((await get(`/api/v1/audit?from=${future}&to=${past}`, adminA)).statusCode).toBe(400);
  });

  it('pages newest first with the list headers', async () => {
    // Entries sharing one timestamp must still page without gaps (ties broken by id).
    const at = new Date();
    await t.ctx.db.insert(auditEntries).values(
      Array.from({ length: 7 }, (_, i) => ({
        id: `tie-${i}`,
        at,
        domainId: a.domain.id,
        actorId: adminA.user.id,
        actorEmail: adminA.user.email,
        action: 'department.update' as const,
        targetType: 'department' as const,
        targetId: `dep-${i}`,
      })),
    );
    const whole = entries((await get('/api/v1/audit?limit=200', adminA)).json());
    expect(whole).toHaveLength(10);
    const times = whole.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const res = await get(
        `/api/v1/audit?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        adminA,
      );
      expect(res.headers['x-total-count']).toBe('10');
      seen.push(...entries(res.json()).map((e) => e.id));
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(whole.map((e) => e.id));
  });

  it('refuses Viewers and Editors, bad filters and foreign cursors', async () => {
    for (const role of ['Viewer', 'Editor'] as const) {
      const who = await makeUser(t.ctx, { role, domain: a, withPassword: false });
      expect((await get('/api/v1/audit', who)).statusCode).toBe(403);
    }
    for (const q of ['action=user.hack', 'targetType=chat', 'from=yesterday', 'limit=0', 'cursor=abc']) {
      const res = await get(`/api/v1/audit?${q}`, adminA);
      expect(res.statusCode, q).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).error.status).toBe(400);
    }
    const users = await get('/api/v1/user?limit=1', adminA);
    const userCursor = users.headers['x-next-cursor'] as string;
    expect((await get(`/api/v1/audit?cursor=${encodeURIComponent(userCursor)}`, adminA)).statusCode).toBe(
      400,
    );
  });
});
