import {
  ApiKeyCreatedSchema,
  MemoryLimits,
  type MemoryList,
  MemoryListSchema,
  MemorySchema,
  MemorySettingsSchema,
} from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, memories } from '../../db/schema/index.ts';
import { buildTestApp, errorOf, startReplica, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { itWithRedis } from '../../test/redis.ts';

// Memory's routes (docs/ARCHITECTURE.md#memory): the domain's switch for its Admins, and each
// person's own memories, which nobody else reads or changes.

const SETTINGS = '/api/v1/settings/memory';
const MINE = '/api/v1/me/memories';

let t: TestApp;
let dom: TestDomain;
let other: TestDomain;
let admin: TestUser;
let ana: TestUser;
let bruno: TestUser;
let outsider: TestUser;
let superAdmin: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  dom = await makeDomain(t.ctx);
  other = await makeDomain(t.ctx);
  admin = await makeUser(t.ctx, { domain: dom, role: 'Admin' });
  ana = await makeUser(t.ctx, { domain: dom });
  bruno = await makeUser(t.ctx, { domain: dom, role: 'Editor' });
  outsider = await makeUser(t.ctx, { domain: other, role: 'Admin' });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function turn(enabled: boolean, who: TestUser = admin, query = '') {
  const res = await t.call('PUT', `${SETTINGS}${query}`, who, { enabled });
  expect(res.statusCode, res.body).toBe(200);
  return MemorySettingsSchema.parse(res.json());
}

const list = async (who: TestUser): Promise<MemoryList> => {
  const res = await t.call('GET', MINE, who);
  expect(res.statusCode, res.body).toBe(200);
  return MemoryListSchema.parse(res.json());
};

async function add(who: TestUser, text: string) {
  const res = await t.call('POST', MINE, who, { text });
  expect(res.statusCode, res.body).toBe(201);
  return MemorySchema.strict().parse(res.json());
}

describe('the memory switch', () => {
  it('is off until an Admin turns it on, audited; every other role is refused', async () => {
    expect(MemorySettingsSchema.parse((await t.call('GET', SETTINGS, admin)).json())).toEqual({
      enabled: false,
    });
    for (const who of [ana, bruno]) {
      expect((await t.call('GET', SETTINGS, who)).statusCode).toBe(403);
      expect((await t.call('PUT', SETTINGS, who, { enabled: true })).statusCode).toBe(403);
    }
    expect((await t.call('GET', SETTINGS, null)).statusCode).toBe(401);

    expect(await turn(true)).toEqual({ enabled: true });
    expect(MemorySettingsSchema.parse((await t.call('GET', SETTINGS, admin)).json()).enabled).toBe(true);
    // Saving the same value again records nothing new.
    await turn(true);
    const audits = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.action, 'memory.settings.update'), eq(auditEntries.domainId, dom.domain.id)),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: admin.user.id,
      targetType: 'domain',
      targetId: dom.domain.id,
      before: { enabled: false },
      after: { enabled: true },
    });
  });

  it('another domain’s Admin reaches only their own; a SuperAdmin any with ?domain=', async () => {
    await turn(true);
    // The outsider's own domain is untouched by this one's switch.
    expect(MemorySettingsSchema.parse((await t.call('GET', SETTINGS, outsider)).json()).enabled).toBe(false);
    const theirs = await t.call('PUT', `${SETTINGS}?domain=${dom.domain.id}`, outsider, { enabled: false });
    expect([403, 404]).toContain(theirs.statusCode);
    expect(MemorySettingsSchema.parse((await t.call('GET', SETTINGS, admin)).json()).enabled).toBe(true);

    expect(await turn(false, superAdmin, `?domain=${other.domain.id}`)).toEqual({ enabled: false });
    expect(await turn(true, superAdmin, `?domain=${other.domain.id}`)).toEqual({ enabled: true });
    expect(MemorySettingsSchema.parse((await t.call('GET', SETTINGS, outsider)).json()).enabled).toBe(true);
    const unknown = await t.call('GET', `${SETTINGS}?domain=nowhere.example`, superAdmin);
    expect(unknown.statusCode).toBe(404);
    await turn(false, outsider);
  });

  itWithRedis('a change reaches the switch another replica keeps in its cache', async () => {
    const { built } = await startReplica(t);
    try {
      const there = built.ctx.services.memory;
      await turn(false);
      // Read, and so cached, on the other replica.
      expect(await there.enabled(dom.domain.id)).toBe(false);
      await turn(true);
      await expect.poll(() => there.enabled(dom.domain.id), { timeout: 5_000 }).toBe(true);
    } finally {
      await built.app.close();
    }
  });

  it('refuses a body that is not { enabled }', async () => {
    for (const body of [{}, { enabled: 'yes' }, { enabled: true, extra: 1 }]) {
      const res = await t.call('PUT', SETTINGS, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('a person’s memories', () => {
  it('are added, listed newest first, changed and deleted by their owner', async () => {
    await turn(true);
    const first = await add(ana, 'Prefiro respostas em tópicos curtos');
    const second = await add(ana, '  Trabalho no time de vendas  ');
    expect(first).toMatchObject({ text: 'Prefiro respostas em tópicos curtos', source: 'user' });
    expect(second.text).toBe('Trabalho no time de vendas');

    const mine = await list(ana);
    expect(mine.enabled).toBe(true);
    expect(mine.memories.map((m) => m.id)).toEqual([second.id, first.id]);
    expect(mine.injected).toBe(2);

    const changed = await t.call('PUT', `${MINE}/${first.id}`, ana, { text: 'Prefiro tópicos bem curtos' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(MemorySchema.parse(changed.json())).toMatchObject({
      id: first.id,
      text: 'Prefiro tópicos bem curtos',
      createdAt: first.createdAt,
    });

    expect((await t.call('DELETE', `${MINE}/${second.id}`, ana)).statusCode).toBe(204);
    expect((await list(ana)).memories.map((m) => m.text)).toEqual(['Prefiro tópicos bem curtos']);
    expect((await t.call('DELETE', `${MINE}/${second.id}`, ana)).statusCode).toBe(404);
  });

  it('are never read or changed by anyone else, an Admin of their domain included', async () => {
    await turn(true);
    const secret = await add(ana, 'Meu aniversário é em maio');
    for (const who of [bruno, admin, outsider, superAdmin]) {
      expect((await list(who)).memories.map((m) => m.id)).not.toContain(secret.id);
      const put = await t.call('PUT', `${MINE}/${secret.id}`, who, { text: 'trocado' });
      expect(put.statusCode).toBe(404);
      expect(errorOf(put).code).toBe('NOT_FOUND');
      expect((await t.call('DELETE', `${MINE}/${secret.id}`, who)).statusCode).toBe(404);
    }
    expect((await list(ana)).memories.find((m) => m.id === secret.id)?.text).toBe(
      'Meu aniversário é em maio',
    );
  });

  it('refuse what is not one short text', async () => {
    await turn(true);
    const mine = (await list(ana)).memories.length;
    for (const body of [
      {},
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(MemoryLimits.textMax + 1) },
      { text: 42 },
      { text: 'ok', source: 'assistant' },
    ]) {
      const res = await t.call('POST', MINE, ana, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const [one] = (await list(ana)).memories;
    expect((await t.call('PUT', `${MINE}/${one?.id}`, ana, { text: '' })).statusCode).toBe(400);
    expect((await t.call('PUT', `${MINE}/${'x'.repeat(101)}`, ana, { text: 'ok' })).statusCode).toBe(400);
    expect((await list(ana)).memories).toHaveLength(mine);
    expect(await add(ana, 'y'.repeat(MemoryLimits.textMax))).toMatchObject({ source: 'user' });
  });

  it('with memory off: listed but none given to chats, and none added', async () => {
    await turn(true);
    await add(bruno, 'Uso o Linux');
    await turn(false);
    const off = await list(bruno);
    expect(off).toMatchObject({ enabled: false, injected: 0 });
    expect(off.memories.map((m) => m.text)).toContain('Uso o Linux');
    const refused = await t.call('POST', MINE, bruno, { text: 'Outra coisa' });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toMatch(/Memory is off/);
    // What was kept may still be changed and deleted.
    const [kept] = off.memories;
    expect((await t.call('PUT', `${MINE}/${kept?.id}`, bruno, { text: 'Uso Linux' })).statusCode).toBe(200);
    expect((await t.call('DELETE', `${MINE}/${kept?.id}`, bruno)).statusCode).toBe(204);
    await turn(true);
  });

  it(`stop at ${MemoryLimits.perPerson} a person, with a conflict`, async () => {
    await turn(true);
    const carla = await makeUser(t.ctx, { domain: dom });
    const now = Date.now();
    await t.ctx.db.insert(memories).values(
      Array.from({ length: MemoryLimits.perPerson }, (_, i) => ({
        id: `m-${carla.user.id}-${i}`,
        userId: carla.user.id,
        domainId: dom.domain.id,
        text: `Fato ${i}`,
        source: 'user' as const,
        createdAt: new Date(now + i),
        updatedAt: new Date(now + i),
      })),
    );
    const full = await t.call('POST', MINE, carla, { text: 'Mais um' });
    expect(full.statusCode).toBe(409);
    expect(errorOf(full).code).toBe('CONFLICT');
    // Two at once after one is freed: only one gets the place.
    expect((await t.call('DELETE', `${MINE}/m-${carla.user.id}-0`, carla)).statusCode).toBe(204);
    const raced = await Promise.all([
      t.call('POST', MINE, carla, { text: 'A' }),
      t.call('POST', MINE, carla, { text: 'B' }),
    ]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await list(carla)).memories).toHaveLength(MemoryLimits.perPerson);
  });

  it('are for signed-in people only: no visitor, no API key, nobody signed out', async () => {
    const key = await t.call('POST', '/api/v1/api_keys', ana, { name: 'memória' });
    expect(key.statusCode, key.body).toBe(201);
    const bearer = { headers: { authorization: `Bearer ${ApiKeyCreatedSchema.parse(key.json()).secret}` } };
    for (const who of [bearer, null]) {
      expect((await t.call('GET', MINE, who)).statusCode).toBe(401);
      expect((await t.call('POST', MINE, who, { text: 'x' })).statusCode).toBe(401);
    }
  });
});
