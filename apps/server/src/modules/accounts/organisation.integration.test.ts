import {
  cnpjCheckDigits,
  DepartmentSchema,
  DomainSchema,
  ErrorBodySchema,
  UserSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, departments, domains } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import type { TestDomain, TestUser } from '../../test/factories.ts';
import { makeDepartment, makeDomain, makeUser } from '../../test/factories.ts';
import { snapshotOrganisation } from '../../test/snapshot.ts';

let t: TestApp;
let a: TestDomain;
let superAdmin: TestUser;
let admin: TestUser;

let n = 0;
const newDomainName = () => `org${++n}-${Date.now()}.com.br`;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeDomain(t.ctx);
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin', domain: a });
  admin = await makeUser(t.ctx, { role: 'Admin', domain: a });
});

afterAll(async () => {
  await t?.close();
});

describe('domains', () => {
  it('a SuperAdmin creates a domain with a first department, ready for its first Admin', async () => {
    const id = newDomainName();
    const res = await t.call('POST', '/api/v1/domain', superAdmin, {
      domain: id.toUpperCase(),
      displayName: 'Acme Brasil',
      cnpj: '11.222.333/0001-81',
      premium: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(DomainSchema.strict().parse(res.json())).toEqual({
      _id: id,
      domain: id,
      active: true,
      displayName: 'Acme Brasil',
      cnpj: '11222333000181',
      premium: true,
      isTrusted: true,
      creator: { name: superAdmin.user.displayName, email: superAdmin.user.email },
    });
    const deps = await t.call('GET', `/api/v1/department?domain=${id}`, superAdmin);
    expect(
      DepartmentSchema.array()
        .parse(deps.json())
        .map((d) => d.displayName),
    ).toEqual(['Geral']);
    const again = await t.call('POST', '/api/v1/domain', superAdmin, { domain: id, displayName: 'Dup' });
    expect(again.statusCode).toBe(409);
    const audit = await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.domainId, id));
    expect(audit.map((e) => e.action).sort()).toEqual(['department.create', 'domain.create']);
  });

  it.each([
    ['numeric, punctuated', '11.222.333/0001-81', '11222333000181'],
    ['numeric, bare', '11222333000181', '11222333000181'],
    ['alphanumeric, punctuated (Receita example)', '12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['alphanumeric, bare, lowercase', '12abc34501de35', '12ABC34501DE35'],
    [
      'alphanumeric, generated',
      `A1B2C3D4E5F6${cnpjCheckDigits('A1B2C3D4E5F6')}`,
      `A1B2C3D4E5F6${cnpjCheckDigits('A1B2C3D4E5F6')}`,
    ],
  ])('accepts a valid CNPJ (%s) and stores it bare', async (_what, cnpj, stored) => {
    const res = await t.call('POST', '/api/v1/domain', superAdmin, {
      domain: newDomainName(),
      displayName: 'Com CNPJ',
      cnpj,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(DomainSchema.parse(res.json()).cnpj).toBe(stored);
  });

  it.each([
    ['numeric, wrong digit', '11.222.333/0001-82'],
    ['alphanumeric, wrong digit', '12.ABC.345/01DE-36'],
    ['letters in the check digits', '12ABC34501DEAB'],
    ['too short', '1122233300018'],
    ['all zeros', '00.000.000/0000-00'],
    ['not a string', 11222333000181],
  ])('refuses an invalid CNPJ (%s) with 400 and creates nothing', async (_what, cnpj) => {
    const domain = newDomainName();
    const before = await snapshotOrganisation(t.ctx);
    const res = await t.call('POST', '/api/v1/domain', superAdmin, { domain, displayName: 'X', cnpj });
    expect(res.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(res.json()).error.code).toBe('VALIDATION_FAILED');
    expect(await snapshotOrganisation(t.ctx)).toEqual(before);
    // …and on update.
    const c = await makeDomain(t.ctx);
    const put = await t.call('PUT', `/api/v1/domain/${c.domain.id}`, superAdmin, { cnpj });
    expect(put.statusCode).toBe(400);
  });

  it('updates accept a round trip of the record; id, domain and creator never change', async () => {
    const c = await makeDomain(t.ctx);
    const record = DomainSchema.parse(
      (await t.call('GET', `/api/v1/domain/${c.domain.id}`, superAdmin)).json(),
    );
    const ok = await t.call('PUT', `/api/v1/domain/${c.domain.id}`, superAdmin, {
      ...record,
      displayName: 'Renomeada',
      cnpj: '12.ABC.345/01DE-35',
      isTrusted: false,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(DomainSchema.parse(ok.json())).toMatchObject({
      displayName: 'Renomeada',
      cnpj: '12ABC34501DE35',
      isTrusted: false,
    });
    const cleared = await t.call('PUT', `/api/v1/domain/${c.domain.id}`, superAdmin, { cnpj: '' });
    expect(DomainSchema.parse(cleared.json()).cnpj).toBeNull();
    for (const body of [
      { _id: 'other.example' },
      { domain: 'other.example' },
      { creator: { name: 'Me', email: 'me@x' } },
      { premium: 'yes' },
      { unknown: 1 },
    ]) {
      const before = await snapshotOrganisation(t.ctx);
      const res = await t.call('PUT', `/api/v1/domain/${c.domain.id}`, superAdmin, body);
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(404);
      expect(await snapshotOrganisation(t.ctx)).toEqual(before);
    }
    expect(
      (await t.call('PUT', '/api/v1/domain/nowhere.example', superAdmin, { displayName: 'x' })).statusCode,
    ).toBe(404);
  });

  it('deactivating a domain locks its users out on their next request', async () => {
    const c = await makeDomain(t.ctx);
    const member = await makeUser(t.ctx, { domain: c });
    expect((await t.call('GET', `/api/v1/user/${member.user.id}`, member)).statusCode).toBe(200);
    const off = await t.call('PUT', `/api/v1/domain/${c.domain.id}`, superAdmin, { active: false });
    expect(off.statusCode).toBe(200);
    expect((await t.call('GET', `/api/v1/user/${member.user.id}`, member)).statusCode).toBe(403);
    await t.call('PUT', `/api/v1/domain/${c.domain.id}`, superAdmin, { active: true });
    expect((await t.call('GET', `/api/v1/user/${member.user.id}`, member)).statusCode).toBe(200);
    // …but nobody deactivates or deletes their own domain.
    expect(
      (await t.call('PUT', `/api/v1/domain/${a.domain.id}`, superAdmin, { active: false })).statusCode,
    ).toBe(403);
    expect((await t.call('DELETE', `/api/v1/domain/${a.domain.id}`, superAdmin)).statusCode).toBe(403);
  });

  it('deleting a domain with users is 409 with a clear message; an empty one goes with its departments', async () => {
    const c = await makeDomain(t.ctx);
    const member = await makeUser(t.ctx, { domain: c });
    const before = await snapshotOrganisation(t.ctx);
    const res = await t.call('DELETE', `/api/v1/domain/${c.domain.id}`, superAdmin);
    expect(res.statusCode).toBe(409);
    expect(ErrorBodySchema.parse(res.json()).error).toMatchObject({
      code: 'CONFLICT',
      message: 'The domain still has 1 user: delete or move them first',
    });
    expect(await snapshotOrganisation(t.ctx)).toEqual(before);

    expect((await t.call('DELETE', `/api/v1/user/${member.user.id}`, superAdmin)).statusCode).toBe(204);
    expect((await t.call('DELETE', `/api/v1/domain/${c.domain.id}`, superAdmin)).statusCode).toBe(204);
    expect(await t.ctx.db.select().from(domains).where(eq(domains.id, c.domain.id))).toEqual([]);
    expect(await t.ctx.db.select().from(departments).where(eq(departments.domainId, c.domain.id))).toEqual(
      [],
    );
    expect((await t.call('DELETE', `/api/v1/domain/${c.domain.id}`, superAdmin)).statusCode).toBe(404);
  });

  it('lists: a SuperAdmin pages through every domain, anyone else sees their own', async () => {
    const total = (await t.ctx.db.select().from(domains)).length;
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const res = await t.call(
        'GET',
        `/api/v1/domain?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        superAdmin,
      );
      expect(res.headers['x-total-count']).toBe(String(total));
      seen.push(
        ...DomainSchema.array()
          .parse(res.json())
          .map((d) => d._id),
      );
      cursor = res.headers['x-next-cursor'] as string | undefined;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const mine = await t.call('GET', '/api/v1/domain', admin);
    expect(
      DomainSchema.array()
        .parse(mine.json())
        .map((d) => d._id),
    ).toEqual([a.domain.id]);
    const search = await t.call(
      'GET',
      `/api/v1/domain?q=${a.domain.id.slice(0, 6).toUpperCase()}`,
      superAdmin,
    );
    expect(
      DomainSchema.array()
        .parse(search.json())
        .map((d) => d._id),
    ).toContain(a.domain.id);
  });
});

describe('departments', () => {
  it('an Admin creates, renames, deactivates and deletes departments of their domain, audited', async () => {
    const created = await t.call('POST', '/api/v1/department', admin, { displayName: 'Jurídico' });
    expect(created.statusCode, created.body).toBe(201);
    const dep = DepartmentSchema.parse(created.json());
    expect(dep).toMatchObject({ displayName: 'Jurídico', domain: a.domain.id, active: true });
    const dup = await t.call('POST', '/api/v1/department', admin, { displayName: 'JURÍDICO' });
    expect(dup.statusCode).toBe(409);
    const renamed = await t.call('PUT', `/api/v1/department/${dep._id}`, admin, {
      ...dep,
      displayName: 'Legal',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(DepartmentSchema.parse(renamed.json()).displayName).toBe('Legal');
    const off = await t.call('PUT', `/api/v1/department/${dep._id}`, admin, { active: false });
    expect(DepartmentSchema.parse(off.json()).active).toBe(false);
    expect(
      (await t.call('PUT', `/api/v1/department/${dep._id}`, admin, { domain: 'x.example' })).statusCode,
    ).toBe(403);
    expect((await t.call('PUT', `/api/v1/department/${dep._id}`, admin, { manager: 'x' })).statusCode).toBe(
      400,
    );
    expect((await t.call('DELETE', `/api/v1/department/${dep._id}`, admin)).statusCode).toBe(204);
    const actions = (
      await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.targetId, dep._id))
    ).map((e) => e.action);
    expect(actions.sort()).toEqual([
      'department.create',
      'department.delete',
      'department.update',
      'department.update',
    ]);
    const update = (
      await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.targetId, dep._id))
    ).find((e) => e.action === 'department.update' && e.after && 'displayName' in e.after);
    expect(update).toMatchObject({ before: { displayName: 'Jurídico' }, after: { displayName: 'Legal' } });
  });

  it('deleting a department with users is 409 with a clear message and changes nothing', async () => {
    const dep = await makeDepartment(t.ctx, a.domain.id, 'Vendas');
    await makeUser(t.ctx, { domain: a, department: dep, withPassword: false });
    await makeUser(t.ctx, { domain: a, department: dep, withPassword: false });
    const before = await snapshotOrganisation(t.ctx);
    const res = await t.call('DELETE', `/api/v1/department/${dep.id}`, admin);
    expect(res.statusCode).toBe(409);
    expect(ErrorBodySchema.parse(res.json()).error).toMatchObject({
      code: 'CONFLICT',
      message: 'The department “Vendas” still has 2 users: move them to another department first',
      details: { users: 2 },
    });
    expect(await snapshotOrganisation(t.ctx)).toEqual(before);
  });

  it('users cannot be placed in a deactivated department', async () => {
    const dep = await makeDepartment(t.ctx, a.domain.id, 'Temporário');
    await t.call('PUT', `/api/v1/department/${dep.id}`, admin, { active: false });
    const target = await makeUser(t.ctx, { domain: a, withPassword: false });
    const record = UserSchema.parse((await t.call('GET', `/api/v1/user/${target.user.id}`, admin)).json());
    const res = await t.call('PUT', `/api/v1/user/${target.user.id}`, admin, {
      ...record,
      department: dep.id,
    });
    expect(res.statusCode).toBe(400);
  });

  it('an Admin names only their own domain; a SuperAdmin any existing one', async () => {
    const c = await makeDomain(t.ctx);
    expect(
      (await t.call('POST', '/api/v1/department', admin, { displayName: 'X', domain: c.domain.id }))
        .statusCode,
    ).toBe(403);
    const ok = await t.call('POST', '/api/v1/department', superAdmin, {
      displayName: 'X',
      domain: c.domain.id,
    });
    expect(ok.statusCode).toBe(201);
    expect(DepartmentSchema.parse(ok.json()).domain).toBe(c.domain.id);
    const missing = await t.call('POST', '/api/v1/department', superAdmin, {
      displayName: 'X',
      domain: 'no.example',
    });
    expect(missing.statusCode).toBe(400);
    for (const body of [{}, { displayName: '' }, { displayName: 'ok', extra: true }, { displayName: 5 }]) {
      expect((await t.call('POST', '/api/v1/department', admin, body)).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    }
  });
});
