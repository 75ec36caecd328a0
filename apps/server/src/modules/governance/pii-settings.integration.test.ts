import { PiiKinds, type PiiSettings, PiiSettingsSchema } from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema/index.ts';
import { buildTestApp, errorOf, startReplica, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { itWithRedis } from '../../test/redis.ts';

// GET·PUT /api/v1/settings/pii (docs/ARCHITECTURE.md#pii-filter): a domain's Admins, or a
// SuperAdmin for any domain; every change audited and dropped from every replica's cache.

const SETTINGS = '/api/v1/settings/pii';
const OFF: PiiSettings = { mode: 'off', kinds: [...PiiKinds] };

let t: TestApp;
let dom: TestDomain;
let other: TestDomain;
let admin: TestUser;
let viewer: TestUser;
let editor: TestUser;
let outsider: TestUser;
let superAdmin: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  dom = await makeDomain(t.ctx);
  other = await makeDomain(t.ctx);
  admin = await makeUser(t.ctx, { domain: dom, role: 'Admin' });
  viewer = await makeUser(t.ctx, { domain: dom });
  editor = await makeUser(t.ctx, { domain: dom, role: 'Editor' });
  outsider = await makeUser(t.ctx, { domain: other, role: 'Admin' });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function read(who: TestUser, query = ''): Promise<PiiSettings> {
  const res = await t.call('GET', `${SETTINGS}${query}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return PiiSettingsSchema.parse(res.json());
}

async function put(body: PiiSettings, who: TestUser = admin, query = ''): Promise<PiiSettings> {
  const res = await t.call('PUT', `${SETTINGS}${query}`, who, body);
  expect(res.statusCode, res.body).toBe(200);
  return PiiSettingsSchema.parse(res.json());
}

const audits = (domainId: string) =>
  t.ctx.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, 'pii.settings.update'), eq(auditEntries.domainId, domainId)));

describe('the PII filter settings', () => {
  it('are off with every kind until an Admin sets them, audited; Viewers and Editors are refused', async () => {
    expect(await read(admin)).toEqual(OFF);
    for (const who of [viewer, editor]) {
      const get = await t.call('GET', SETTINGS, who);
      expect(get.statusCode).toBe(403);
      expect(errorOf(get).code).toBe('FORBIDDEN');
      expect((await t.call('PUT', SETTINGS, who, { mode: 'block', kinds: ['cpf'] })).statusCode).toBe(403);
    }
    expect((await t.call('GET', SETTINGS, null)).statusCode).toBe(401);
    expect(await read(admin)).toEqual(OFF);

    const redact: PiiSettings = { mode: 'redact', kinds: ['cpf', 'email'] };
    expect(await put(redact)).toEqual(redact);
    expect(await read(admin)).toEqual(redact);
    // Saving the same again (in another order) records nothing new.
    await put({ mode: 'redact', kinds: ['email', 'cpf'] });
    const rows = await audits(dom.domain.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: admin.user.id,
      targetType: 'domain',
      targetId: dom.domain.id,
      before: OFF,
      after: redact,
    });
  });

  it('another domain’s Admin reaches only their own; a SuperAdmin any with ?domain=', async () => {
    const mine = await put({ mode: 'block', kinds: ['cpf'] });
    expect(await read(outsider)).toEqual(OFF);
    const theirs = await t.call('PUT', `${SETTINGS}?domain=${dom.domain.id}`, outsider, OFF);
    expect(theirs.statusCode).toBe(403);
    expect((await t.call('GET', `${SETTINGS}?domain=${dom.domain.id}`, outsider)).statusCode).toBe(403);
    expect(await read(admin)).toEqual(mine);

    const set: PiiSettings = { mode: 'redact', kinds: ['credential', 'jwt'] };
    expect(await put(set, superAdmin, `?domain=${other.domain.id}`)).toEqual(set);
    expect(await read(outsider)).toEqual(set);
    expect(await read(superAdmin, `?domain=${other.domain.id}`)).toEqual(set);
    expect((await audits(other.domain.id))[0]).toMatchObject({ actorId: superAdmin.user.id, after: set });
    const unknown = await t.call('GET', `${SETTINGS}?domain=nowhere.example`, superAdmin);
    expect(unknown.statusCode).toBe(404);
    await put(OFF, outsider);
  });

  it('refuses what is not { mode, kinds } with 400 and changes nothing', async () => {
    const before = await put({ mode: 'redact', kinds: ['cpf'] });
    const count = (await audits(dom.domain.id)).length;
    for (const body of [
      {},
      { mode: 'hide', kinds: ['cpf'] },
      { mode: 'block' },
      { mode: 'block', kinds: [] },
      { mode: 'block', kinds: ['cpf', 'cpf'] },
      { mode: 'block', kinds: ['passport'] },
      { mode: 'block', kinds: ['cpf'], extra: true },
    ]) {
      const res = await t.call('PUT', SETTINGS, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    expect(await read(admin)).toEqual(before);
    expect(await audits(dom.domain.id)).toHaveLength(count);
  });

  it('the filter the entry points use follows a change at once on this replica', async () => {
    const pii = t.ctx.services.pii;
    await put(OFF);
    expect(await pii.screen(dom.domain.id, 'CPF 529.982.247-25')).toBe('CPF 529.982.247-25');
    await put({ mode: 'redact', kinds: ['cpf'] });
    expect(await pii.screen(dom.domain.id, 'CPF 529.982.247-25')).toBe('CPF [CPF]');
    await put({ mode: 'block', kinds: ['cpf'] });
    const refused = await pii.screen(dom.domain.id, 'CPF 529.982.247-25').catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'PII_BLOCKED', details: { kinds: ['cpf'] } });
    expect(JSON.stringify(refused)).not.toContain('529');
    // Other domains keep their own.
    expect(await pii.screen(other.domain.id, 'CPF 529.982.247-25')).toBe('CPF 529.982.247-25');
  });

  itWithRedis('a change reaches the filter another replica keeps in its cache', async () => {
    const { built } = await startReplica(t);
    try {
      const there = built.ctx.services.pii;
      await put(OFF);
      // Read, and so cached, on the other replica.
      expect(await there.screen(dom.domain.id, 'ana@example.com')).toBe('ana@example.com');
      await put({ mode: 'redact', kinds: ['email'] });
      await expect
        .poll(() => there.screen(dom.domain.id, 'ana@example.com'), { timeout: 5_000 })
        .toBe('[EMAIL]');
    } finally {
      await built.app.close();
    }
  });
});
