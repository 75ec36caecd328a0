import { BudgetListSchema, BudgetSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  budgetPeriods,
  budgetReservations,
  budgets,
  modelPrices,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import type { CallStart } from './calls.ts';
import { usageService } from './service.ts';

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let adminA: TestUser;
let adminB: TestUser;
let editorA: TestUser;
let viewerA: TestUser;
let superAdmin: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeDomain(t.ctx);
  b = await makeDomain(t.ctx);
  adminA = await makeUser(t.ctx, { role: 'Admin', domain: a });
  adminB = await makeUser(t.ctx, { role: 'Admin', domain: b });
  editorA = await makeUser(t.ctx, { role: 'Editor', domain: a });
  viewerA = await makeUser(t.ctx, { domain: a });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin', domain: b });
  await t.ctx.db.insert(modelPrices).values({
    id: 'price-fixture',
    model: 'fixture:priced',
    inputPerMillionMicros: 1_000_000, // 1 micro a token
    outputPerMillionMicros: 1_000_000,
    effectiveFrom: new Date('2020-01-01T00:00:00Z'),
    setBy: 'root@x',
  });
});
afterAll(() => t.close());

const budgetCount = async (domainId: string) =>
  (await t.ctx.db.select().from(budgets).where(eq(budgets.domainId, domainId))).length;

/** A call of `who`'s, reading `input` and writing at most `maxOutputTokens`. */
const start = (who: TestUser, model: string, input: string, maxOutputTokens: number): CallStart => ({
  entry: {
    domainId: who.user.domainId,
    departmentId: who.user.departmentId,
    userId: who.user.id,
    source: 'chat',
    model,
  },
  estimate: { input: () => input, maxOutputTokens },
});

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('budgets over the API', () => {
  it('an Admin sets a domain, a department and a person budget; each lists with its use', async () => {
    const made = [];
    for (const scope of [
      { kind: 'domain' },
      { kind: 'department', departmentId: a.department.id },
      { kind: 'user', userId: viewerA.user.id },
    ]) {
      const res = await t.call('POST', '/api/v1/usage/budgets', adminA, {
        scope,
        period: 'month',
        limit: { costMicros: 5_000_000 },
      });
      expect(res.statusCode, res.body).toBe(201);
      made.push(BudgetSchema.parse(res.json()));
    }
    expect(made.map((m) => m.scopeLabel)).toEqual([
      a.domain.id,
      a.department.displayName,
      viewerA.user.displayName,
    ]);
    expect(made[0]?.warnAtPercent).toBe(80);
    expect(made[0]?.used).toMatchObject({ costMicros: 0, tokens: 0 });
    const list = BudgetListSchema.parse((await t.call('GET', '/api/v1/usage/budgets', adminA)).json());
    expect(list.items.map((i) => i.id).sort()).toEqual(made.map((m) => m.id).sort());
    // A second budget for the same scope and period is refused; change the one there instead.
    const again = await t.call('POST', '/api/v1/usage/budgets', adminA, {
      scope: { kind: 'domain' },
      period: 'month',
      limit: { tokens: 10 },
    });
    expect(again.statusCode).toBe(409);
    const audit = await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.action, 'budget.create'));
    expect(audit.filter((r) => r.domainId === a.domain.id)).toHaveLength(3);
    for (const m of made)
      expect((await t.call('DELETE', `/api/v1/usage/budgets/${m.id}`, adminA)).statusCode).toBe(204);
    expect(await budgetCount(a.domain.id)).toBe(0);
  });

  it('Editors, Viewers and another domain’s Admin can neither see nor change them; a SuperAdmin names the domain', async () => {
    const made = BudgetSchema.parse(
      (
        await t.call('POST', '/api/v1/usage/budgets', adminA, {
          scope: { kind: 'domain' },
          period: 'day',
          limit: { tokens: 1000 },
        })
      ).json(),
    );
    for (const who of [editorA, viewerA]) {
      expect((await t.call('GET', '/api/v1/usage/budgets', who)).statusCode).toBe(403);
      expect((await t.call('DELETE', `/api/v1/usage/budgets/${made.id}`, who)).statusCode).toBe(403);
    }
    expect((await t.call('GET', `/api/v1/usage/budgets?domain=${a.domain.id}`, adminB)).statusCode).toBe(403);
    expect(
      BudgetListSchema.parse((await t.call('GET', '/api/v1/usage/budgets', adminB)).json()).items,
    ).toEqual([]);
    const put = await t.call('PUT', `/api/v1/usage/budgets/${made.id}`, adminB, {
      scope: { kind: 'domain' },
      period: 'day',
      limit: { tokens: 1 },
    });
    expect(put.statusCode).toBe(404);
    expect((await t.call('DELETE', `/api/v1/usage/budgets/${made.id}`, adminB)).statusCode).toBe(404);
    const seen = BudgetListSchema.parse(
      (await t.call('GET', `/api/v1/usage/budgets?domain=${a.domain.id}`, superAdmin)).json(),
    );
    expect(seen.items.map((i) => i.id)).toEqual([made.id]);
    const changed = await t.call('PUT', `/api/v1/usage/budgets/${made.id}`, superAdmin, {
      scope: { kind: 'domain' },
      period: 'week',
      limit: { tokens: 2000, costMicros: 1 },
      warnAtPercent: 90,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(BudgetSchema.parse(changed.json())).toMatchObject({
      period: 'week',
      limit: { tokens: 2000, costMicros: 1 },
    });
    expect((await t.call('DELETE', `/api/v1/usage/budgets/${made.id}`, superAdmin)).statusCode).toBe(204);
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const bad = [
      { scope: { kind: 'domain' }, period: 'month', limit: {} },
      { scope: { kind: 'domain' }, period: 'year', limit: { tokens: 1 } },
      { scope: { kind: 'domain' }, period: 'month', limit: { tokens: -5 } },
      { scope: { kind: 'team' }, period: 'month', limit: { tokens: 5 } },
      { scope: { kind: 'domain' }, period: 'month', limit: { tokens: 5 }, warnAtPercent: 0 },
    ];
    for (const body of bad) {
      const res = await t.call('POST', '/api/v1/usage/budgets', adminA, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    // Another domain's department and person are not this domain's.
    const other = await makeUser(t.ctx, { domain: b });
    const dep = await t.call('POST', '/api/v1/usage/budgets', adminA, {
      scope: { kind: 'department', departmentId: b.department.id },
      period: 'month',
      limit: { tokens: 5 },
    });
    expect(errorOf(dep).code).toBe('DEPARTMENT_NOT_FOUND');
    const person = await t.call('POST', '/api/v1/usage/budgets', adminA, {
      scope: { kind: 'user', userId: other.user.id },
      period: 'month',
      limit: { tokens: 5 },
    });
    expect(errorOf(person).code).toBe('USER_NOT_FOUND');
    expect(await budgetCount(a.domain.id)).toBe(0);
  });
});

describe('admission', () => {
  it('of 50 calls at once against a budget worth 5, at most 5 get through; settling frees what was not used', async () => {
    const d = await makeDomain(t.ctx);
    const admin = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const person = await makeUser(t.ctx, { domain: d });
    // Each call's worst case: the question (a few tokens) + 100 output tokens; 5 fit, a 6th does not.
    const question = 'Olá!';
    const res = await t.call('POST', '/api/v1/usage/budgets', admin, {
      scope: { kind: 'user', userId: person.user.id },
      period: 'day',
      limit: { tokens: 5 * 103 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        t.ctx.services.usage.begin(start(person, 'fixture:any', question, 100)),
      ),
    );
    const admitted = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value);
    expect(admitted).toHaveLength(5);
    const refused = outcomes.find((o) => o.status === 'rejected');
    // Each refusal is counted for the operator's dashboard (GET /metrics).
    const refusals = (await t.ctx.metrics.scrape())
      .split('\n')
      .find((l) => l.startsWith('assistente_budget_refusals_total{code="BUDGET_EXCEEDED"}'));
    expect(Number(refusals?.split(' ').pop())).toBeGreaterThanOrEqual(45);
    expect((refused as PromiseRejectedResult).reason).toMatchObject({
      code: 'BUDGET_EXCEEDED',
      details: { scope: 'user', resetsAt: expect.any(String) },
    });
    // Each used 10 tokens: the rest of their holds comes back, and more calls fit again.
    for (const call of admitted) await call.settle({ inputTokens: 5, outputTokens: 5 });
    const [period] = await t.ctx.db
      .select()
      .from(budgetPeriods)
      .where(eq(budgetPeriods.budgetId, res.json().id));
    expect(period).toMatchObject({ usedTokens: 50, reservedTokens: 0 });
    const next = await t.ctx.services.usage.begin(start(person, 'fixture:any', question, 100));
    await next.release();
    const [after] = await t.ctx.db
      .select()
      .from(budgetPeriods)
      .where(eq(budgetPeriods.budgetId, res.json().id));
    expect(after).toMatchObject({ usedTokens: 50, reservedTokens: 0 });
  });

  it('a money budget refuses a model with no price (PRICE_MISSING), and counts a priced one in micros', async () => {
    const d = await makeDomain(t.ctx);
    const admin = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const person = await makeUser(t.ctx, { domain: d });
    const made = await t.call('POST', '/api/v1/usage/budgets', admin, {
      scope: { kind: 'department', departmentId: d.department.id },
      period: 'month',
      limit: { costMicros: 1000 },
    });
    expect(made.statusCode).toBe(201);
    const missing = await refusal(t.ctx.services.usage.begin(start(person, 'fixture:unpriced', 'Oi', 10)));
    expect(missing.code).toBe('PRICE_MISSING');
    const call = await t.ctx.services.usage.begin(start(person, 'fixture:priced', 'Oi', 500));
    const settled = await call.settle({ inputTokens: 100, outputTokens: 300 });
    expect(settled.costMicros).toBe(400);
    // 600 left: a worst case of 2 + 700 no longer fits.
    const over = await refusal(t.ctx.services.usage.begin(start(person, 'fixture:priced', 'Oi', 700)));
    expect(over.code).toBe('BUDGET_EXCEEDED');
    const status = await t.ctx.services.usage.budgetStatuses({
      domainId: d.domain.id,
      departmentId: d.department.id,
      userId: person.user.id,
    });
    expect(status).toEqual([
      expect.objectContaining({
        scope: 'department',
        percent: 40,
        used: expect.objectContaining({ costMicros: 400 }),
      }),
    ]);
  });

  it('a budget set mid-period counts what the period already used, and people outside its scope pass', async () => {
    const d = await makeDomain(t.ctx);
    const admin = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const person = await makeUser(t.ctx, { domain: d });
    const other = await makeUser(t.ctx, { domain: d });
    await t.ctx.services.usage.record({
      ...start(person, 'fixture:any', '', 0).entry,
      tokens: { inputTokens: 60, outputTokens: 40 },
    });
    await t.call('POST', '/api/v1/usage/budgets', admin, {
      scope: { kind: 'user', userId: person.user.id },
      period: 'week',
      limit: { tokens: 150 },
    });
    const over = await refusal(t.ctx.services.usage.begin(start(person, 'fixture:any', 'Oi', 60)));
    expect(over.code).toBe('BUDGET_EXCEEDED');
    const call = await t.ctx.services.usage.begin(start(other, 'fixture:any', 'Oi', 10_000));
    await call.release();
  });

  it('holds of a call whose process died are released by the sweep once they expire', async () => {
    const d = await makeDomain(t.ctx);
    const admin = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const person = await makeUser(t.ctx, { domain: d });
    const made = (
      await t.call('POST', '/api/v1/usage/budgets', admin, {
        scope: { kind: 'domain' },
        period: 'day',
        limit: { tokens: 200 },
      })
    ).json();
    await t.ctx.services.usage.begin(start(person, 'fixture:any', 'Oi', 150)); // never settled: its process "died"
    expect((await refusal(t.ctx.services.usage.begin(start(person, 'fixture:any', 'Oi', 150)))).code).toBe(
      'BUDGET_EXCEEDED',
    );
    expect(await t.ctx.services.usage.sweepReservations()).toBe(0); // not expired yet
    await t.ctx.db.update(budgetReservations).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(await t.ctx.services.usage.sweepReservations()).toBeGreaterThanOrEqual(1);
    const [period] = await t.ctx.db.select().from(budgetPeriods).where(eq(budgetPeriods.budgetId, made.id));
    expect(period?.reservedTokens).toBe(0);
    const call = await t.ctx.services.usage.begin(start(person, 'fixture:any', 'Oi', 150));
    await call.release();
  });
});

describe('admission where the server alone writes its database (the embedded default)', () => {
  it('holds in memory: 50 at once against a budget worth 5 admit 5; used reaches the database; a restart holds nothing', async () => {
    const d = await makeDomain(t.ctx);
    const admin = await makeUser(t.ctx, { role: 'Admin', domain: d });
    const person = await makeUser(t.ctx, { domain: d });
    const made = await t.call('POST', '/api/v1/usage/budgets', admin, {
      scope: { kind: 'domain' },
      period: 'month',
      limit: { tokens: 5 * 103 },
    });
    expect(made.statusCode, made.body).toBe(201);
    const sole = usageService({ ...t.ctx, soleWriter: true });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, () => sole.begin(start(person, 'fixture:any', 'Olá!', 100))),
    );
    const admitted = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value);
    expect(admitted).toHaveLength(5);
    expect(await t.ctx.db.select().from(budgetReservations)).toEqual([]); // nothing written to hold them
    for (const call of admitted.slice(0, 4)) await call.settle({ inputTokens: 5, outputTokens: 5 });
    const [period] = await t.ctx.db
      .select()
      .from(budgetPeriods)
      .where(eq(budgetPeriods.budgetId, made.json().id));
    expect(period).toMatchObject({ usedTokens: 40, reservedTokens: 0 });
    // One call still holds its 103: 40 + 103 + 4 more worst cases fit, a fifth does not.
    const more = await Promise.allSettled(
      Array.from({ length: 5 }, () => sole.begin(start(person, 'fixture:any', 'Olá!', 100))),
    );
    expect(more.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    // The process dies with its holds: a new one (a restart) holds nothing and counts what was used.
    sole.close();
    const restarted = usageService({ ...t.ctx, soleWriter: true });
    const again = await Promise.allSettled(
      Array.from({ length: 10 }, () => restarted.begin(start(person, 'fixture:any', 'Olá!', 100))),
    );
    expect(again.filter((o) => o.status === 'fulfilled')).toHaveLength(4);
    restarted.close();
  });
});
