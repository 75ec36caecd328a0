import { PriceListSchema, UsageMeSchema, UsageSummarySchema } from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, modelPrices, usageDaily, users } from '../../db/schema/index.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import {
  makeDepartment,
  makeDomain,
  makeSantito,
  makeUser,
  type TestDomain,
  type TestUser,
} from '../../test/factories.ts';
import { dayIn } from './periods.ts';

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let adminA: TestUser;
let adminB: TestUser;
let editorA: TestUser;
let viewerA: TestUser;
let gone: TestUser;
let superAdmin: TestUser;
let sales: string;
let santito: string;

const model = 'fixture:reported';
const zone = 'America/Sao_Paulo';
const today = () => dayIn(zone, new Date());

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeDomain(t.ctx, { premium: true });
  b = await makeDomain(t.ctx);
  adminA = await makeUser(t.ctx, { role: 'Admin', domain: a, displayName: 'Ana Admin' });
  adminB = await makeUser(t.ctx, { role: 'Admin', domain: b });
  editorA = await makeUser(t.ctx, { role: 'Editor', domain: a, displayName: 'Edu, "the" Editor' });
  viewerA = await makeUser(t.ctx, { domain: a, displayName: 'Vera Viewer' });
  gone = await makeUser(t.ctx, { domain: a, displayName: 'Gone Soon' });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin', domain: b });
  sales = (await makeDepartment(t.ctx, a.domain.id, 'Sales')).id;
  santito = (await makeSantito(t.ctx, adminA, { name: 'Santo' })).id;
  await t.ctx.db.insert(modelPrices).values({
    id: 'price-reported',
    model,
    inputPerMillionMicros: 1_000_000, // 1 micro a token
    outputPerMillionMicros: 2_000_000,
    effectiveFrom: new Date('2020-01-01T00:00:00Z'),
    setBy: 'root@x',
  });
  const rec = (over: Record<string, unknown>, inputTokens: number, outputTokens: number, at?: Date) =>
    t.ctx.services.usage.record({
      domainId: a.domain.id,
      departmentId: a.department.id,
      userId: viewerA.user.id,
      source: 'chat',
      model,
      tokens: { inputTokens, outputTokens },
      ...(at ? { at } : {}),
      ...over,
    });
  await rec({}, 100, 10); // 120 micros
  await rec({ santitoId: santito }, 200, 20); // 240
  await rec({ userId: editorA.user.id, departmentId: sales, source: 'api' }, 1000, 0); // 1000
  await rec({ userId: gone.user.id, model: 'fixture:unpriced' }, 5, 5); // unknown
  await rec({ userId: null, departmentId: null, source: 'embedding' }, 50, 0); // 50
  await rec({}, 7, 7, new Date(Date.now() - 40 * 86_400_000)); // outside this month's /me and the range
  // The other domain's usage never shows in A's reports.
  await t.ctx.services.usage.record({
    domainId: b.domain.id,
    userId: adminB.user.id,
    source: 'chat',
    model,
    tokens: { inputTokens: 999_999, outputTokens: 0 },
  });
  // An erased person: their ledger rows stay, their name goes.
  await t.ctx.db.delete(users).where(eq(users.id, gone.user.id));
});
afterAll(() => t.close());

const range = () => `from=${today()}&to=${today()}`;
const summary = async (groupBy: string, who: TestUser = adminA, extra = '') => {
  const res = await t.call('GET', `/api/v1/usage/summary?${range()}&groupBy=${groupBy}${extra}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return UsageSummarySchema.parse(res.json());
};

describe('usage summary', () => {
  it('sums each group from the day roll-ups, with names, and the total of all', async () => {
    const total = { calls: 5, inputTokens: 1355, outputTokens: 35, costMicros: 1410, unpricedCalls: 1 };
    const byUser = await summary('user');
    expect(byUser.total).toEqual(total);
    const row = (key: string) => byUser.rows.find((r) => r.key === key);
    expect(row(viewerA.user.id)).toMatchObject({ label: 'Vera Viewer', calls: 2, costMicros: 360 });
    expect(row(editorA.user.id)).toMatchObject({ label: 'Edu, "the" Editor', calls: 1, costMicros: 1000 });
    expect(row('')).toMatchObject({ label: 'No person', calls: 1, costMicros: 50 });
    // The erased person: a stable pseudonym, never their id (an e-mail).
    const erased = byUser.rows.find((r) => r.label.startsWith('Deleted user '));
    expect(erased).toMatchObject({ calls: 1, unpricedCalls: 1, costMicros: 0 });
    expect(erased?.key).not.toContain(gone.user.id);
    expect(JSON.stringify(byUser)).not.toContain(gone.user.id);
    expect((await summary('user')).rows.find((r) => r.label.startsWith('Deleted'))?.label).toBe(
      erased?.label,
    );

    const byDepartment = await summary('department');
    expect(byDepartment.total).toEqual(total);
    expect(byDepartment.rows.find((r) => r.key === sales)).toMatchObject({ label: 'Sales', calls: 1 });
    expect(byDepartment.rows.find((r) => r.key === a.department.id)).toMatchObject({ calls: 3 });

    const bySantito = await summary('santito');
    expect(bySantito.rows.find((r) => r.key === santito)).toMatchObject({ label: 'Santo', calls: 1 });
    expect(bySantito.rows.find((r) => r.key === '')).toMatchObject({ label: 'No santito', calls: 4 });

    const byModel = await summary('model');
    expect(byModel.rows.map((r) => [r.key, r.calls, r.unpricedCalls])).toEqual([
      [model, 4, 0],
      ['fixture:unpriced', 1, 1],
    ]);
    const bySource = await summary('source');
    expect(Object.fromEntries(bySource.rows.map((r) => [r.key, r.calls]))).toEqual({
      chat: 3,
      api: 1,
      embedding: 1,
    });
    const byDay = await summary('day');
    expect(byDay.rows).toEqual([{ key: today(), label: today(), ...total }]);
  });

  it('a wider range takes in the older day; the other domain never shows', async () => {
    const from = dayIn(zone, new Date(Date.now() - 60 * 86_400_000));
    const res = await t.call('GET', `/api/v1/usage/summary?from=${from}&to=${today()}&groupBy=day`, adminA);
    const body = UsageSummarySchema.parse(res.json());
    expect(body.total.calls).toBe(6);
    expect(body.rows).toHaveLength(2);
    expect(body.total.inputTokens).toBeLessThan(999_999);
  });

  it('a SuperAdmin reads any domain with ?domain=; Admins only their own; others are refused', async () => {
    expect((await summary('day', superAdmin, `&domain=${a.domain.id}`)).total.calls).toBe(5);
    expect((await summary('day', superAdmin)).total.inputTokens).toBe(999_999);
    const other = await t.call('GET', `/api/v1/usage/summary?${range()}&domain=${a.domain.id}`, adminB);
    expect(other.statusCode).toBe(403);
    expect(other.body).not.toContain(viewerA.user.id);
    for (const who of [editorA, viewerA]) {
      expect((await t.call('GET', `/api/v1/usage/summary?${range()}`, who)).statusCode).toBe(403);
      expect((await t.call('GET', `/api/v1/usage/export?${range()}&format=csv`, who)).statusCode).toBe(403);
    }
    expect((await t.call('GET', `/api/v1/usage/summary?${range()}`)).statusCode).toBe(401);
    const missing = await t.call(
      'GET',
      `/api/v1/usage/summary?${range()}&domain=nowhere.example`,
      superAdmin,
    );
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a reversed range, one over the limit and a bad group', async () => {
    const reversed = await t.call('GET', '/api/v1/usage/summary?from=2026-02-02&to=2026-02-01', adminA);
    expect(reversed.statusCode).toBe(400);
    expect(errorOf(reversed).code).toBe('VALIDATION_FAILED');
    const long = await t.call('GET', '/api/v1/usage/summary?from=2024-01-01&to=2026-01-01', adminA);
    expect(long.statusCode).toBe(400);
    const bad = await t.call('GET', `/api/v1/usage/summary?${range()}&groupBy=colour`, adminA);
    expect(bad.statusCode).toBe(400);
    expect(
      (await t.call('GET', '/api/v1/usage/summary?from=yesterday&to=2026-01-01', adminA)).statusCode,
    ).toBe(400);
  });
});

describe('usage export', () => {
  it('streams the summary’s rows as CSV: a header, RFC 4180 quoting, costs in decimal USD', async () => {
    const res = await t.call('GET', `/api/v1/usage/export?${range()}&groupBy=user&format=csv`, adminA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('key,label,calls,input_tokens,output_tokens,cost_usd,unpriced_calls');
    expect(lines).toContain(`${editorA.user.id},"Edu, ""the"" Editor",1,1000,0,0.001000,0`);
    expect(lines).toContain(`${viewerA.user.id},Vera Viewer,2,300,30,0.000360,0`);
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 4 + 1);
  });
});

describe('usage/me', () => {
  it('answers the caller’s own usage this month by model, for every role', async () => {
    const res = await t.call('GET', '/api/v1/usage/me', viewerA);
    expect(res.statusCode).toBe(200);
    const me = UsageMeSchema.parse(res.json());
    expect(me.to).toBe(today());
    expect(me.from).toBe(`${today().slice(0, 8)}01`);
    // 40 days ago is never this month.
    expect(me.total).toEqual({
      calls: 2,
      inputTokens: 300,
      outputTokens: 30,
      costMicros: 360,
      unpricedCalls: 0,
    });
    expect(me.byModel).toEqual([{ key: model, label: model, ...me.total }]);
    const editor = UsageMeSchema.parse((await t.call('GET', '/api/v1/usage/me', editorA)).json());
    expect(editor.total.costMicros).toBe(1000);
    expect((await t.call('GET', '/api/v1/usage/me')).statusCode).toBe(401);
  });
});

describe('prices', () => {
  it('a SuperAdmin sets a price from now on: history kept, audit-logged, later calls cost the new price', async () => {
    const target = 'fixture:repriced';
    const first = await t.call('PUT', `/api/v1/usage/prices/${target}`, superAdmin, {
      inputPerMillion: 2.5,
      outputPerMillion: 10,
      currency: 'USD',
    });
    expect(first.statusCode, first.body).toBe(200);
    const before = await t.ctx.services.usage.record({
      domainId: a.domain.id,
      source: 'chat',
      model: target,
      tokens: { inputTokens: 1000, outputTokens: 100 },
    });
    expect(before.costMicros).toBe(3500);
    const second = await t.call('PUT', `/api/v1/usage/prices/${target}`, superAdmin, {
      inputPerMillion: 5,
      outputPerMillion: 20,
      cachedInputPerMillion: 0.5,
      currency: 'USD',
    });
    expect(second.json()).toMatchObject({ model: target, inputPerMillion: 5, cachedInputPerMillion: 0.5 });
    const after = await t.ctx.services.usage.record({
      domainId: a.domain.id,
      source: 'chat',
      model: target,
      tokens: { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 1000 },
    });
    expect(after.costMicros).toBe(500 + 2000);

    const history = PriceListSchema.parse(
      (await t.call('GET', `/api/v1/usage/prices/${target}/history`, adminA)).json(),
    );
    expect(history.items.map((p) => p.inputPerMillion)).toEqual([5, 2.5]);
    expect(history.items[0]?.setBy).toBe(superAdmin.user.email);
    const list = PriceListSchema.parse((await t.call('GET', '/api/v1/usage/prices', adminA)).json());
    expect(list.items.find((p) => p.model === target)?.inputPerMillion).toBe(5);
    const audit = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'price.update'), eq(auditEntries.targetId, target)));
    expect(audit).toHaveLength(2);
    expect(audit[0]?.actorEmail).toBe(superAdmin.user.email);
  });

  it('only a SuperAdmin writes prices; Admins read; others are refused; bad input changes nothing', async () => {
    const target = 'fixture:guarded';
    const body = { inputPerMillion: 1, outputPerMillion: 1, currency: 'USD' };
    for (const who of [adminA, editorA, viewerA]) {
      expect((await t.call('PUT', `/api/v1/usage/prices/${target}`, who, body)).statusCode).toBe(403);
    }
    for (const who of [editorA, viewerA]) {
      expect((await t.call('GET', '/api/v1/usage/prices', who)).statusCode).toBe(403);
      expect((await t.call('GET', `/api/v1/usage/prices/${model}/history`, who)).statusCode).toBe(403);
    }
    for (const bad of [
      { ...body, currency: 'EUR' },
      { ...body, inputPerMillion: -1 },
      { ...body, outputPerMillion: 0.0000001 },
      { inputPerMillion: 1 },
    ]) {
      expect((await t.call('PUT', `/api/v1/usage/prices/${target}`, superAdmin, bad)).statusCode).toBe(400);
    }
    expect((await t.call('PUT', '/api/v1/usage/prices/no-provider', superAdmin, body)).statusCode).toBe(400);
    expect(await t.ctx.db.select().from(modelPrices).where(eq(modelPrices.model, target))).toEqual([]);
    const rolled = await t.ctx.db.select().from(usageDaily).where(eq(usageDaily.model, target));
    expect(rolled).toEqual([]);
  });
});
