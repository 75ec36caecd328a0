import {
  AuditEntrySchema,
  ErrorBodySchema,
  type VirtualAccount,
  VirtualAccountSchema,
  type VirtualAccountWithSecret,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualAccounts } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeSantito, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { VIRTUAL_ACCOUNT_CHANGED } from './service.ts';

let t: TestApp;
let premium: TestDomain;
let other: TestDomain;
let plain: TestDomain;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let superAdmin: TestUser;
let otherAdmin: TestUser;
let plainAdmin: TestUser;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(method: Method, url: string, who: TestUser | null, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: who?.headers ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
const errorOf = (res: LightMyRequestResponse) => ErrorBodySchema.parse(res.json()).error;

const BASE = '/api/v1/virtual_account';

async function create(
  who: TestUser,
  body: Record<string, unknown> = {},
  query = '',
): Promise<VirtualAccountWithSecret> {
  const res = await call('POST', `${BASE}${query}`, who, {
    displayName: 'Loja',
    allowedOrigins: ['https://shop.example.com'],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return VirtualAccountWithSecretSchema.strict().parse(res.json());
}

beforeAll(async () => {
  t = await buildTestApp();
  premium = await makeDomain(t.ctx, { premium: true });
  other = await makeDomain(t.ctx, { premium: true });
  plain = await makeDomain(t.ctx);
  [admin, editor, viewer] = await Promise.all([
    makeUser(t.ctx, { domain: premium, role: 'Admin' }),
    makeUser(t.ctx, { domain: premium, role: 'Editor' }),
    makeUser(t.ctx, { domain: premium, role: 'Viewer' }),
  ]);
  superAdmin = await makeUser(t.ctx, { domain: other, role: 'SuperAdmin' });
  otherAdmin = await makeUser(t.ctx, { domain: other, role: 'Admin' });
  plainAdmin = await makeUser(t.ctx, { domain: plain, role: 'Admin' });
});

afterAll(async () => {
  await t?.close();
});

describe('virtual accounts: who may manage them', () => {
  it('an Admin creates one in their domain, with defaults, and sees the secret once', async () => {
    const va = await create(admin);
    expect(va).toMatchObject({
      domain: premium.domain.id,
      displayName: 'Loja',
      color: '#1565c0',
      agentId: null,
      allowedOrigins: ['https://shop.example.com'],
      identity: 'anonymous',
      limits: { messagesPerMinute: 10, messagesPerDay: 200 },
      allowAttachments: false,
      active: true,
      stats: { visitors: 0, chats: 0, messages: 0 },
    });
    expect(va.secret).toMatch(/^[0-9a-f]{64}$/);

    const got = await call('GET', `${BASE}/${va.virtualAccountId}`, admin);
    expect(got.statusCode).toBe(200);
    const body = got.json() as Record<string, unknown>;
    expect(body).not.toHaveProperty('secret');
    VirtualAccountSchema.strict().parse(body);
    expect(got.headers['cache-control']).toContain('no-store');

    // Sealed at rest: the stored column is not the secret.
    const [row] = await t.ctx.db
      .select()
      .from(virtualAccounts)
      .where(eq(virtualAccounts.id, va.virtualAccountId));
    expect(row!.secretEnc).not.toContain(va.secret);
  });

  it('Editors and Viewers are refused every operation, and nobody signed out gets in', async () => {
    const va = await create(admin);
    const id = va.virtualAccountId;
    for (const who of [editor, viewer]) {
      for (const [method, url, payload] of [
        ['GET', BASE, undefined],
        ['POST', BASE, { displayName: 'x' }],
        ['GET', `${BASE}/${id}`, undefined],
        ['PUT', `${BASE}/${id}`, { displayName: 'x' }],
        ['DELETE', `${BASE}/${id}`, undefined],
        ['POST', `${BASE}/${id}/secret`, undefined],
      ] as const) {
        const res = await call(method, url, who, payload);
        expect(res.statusCode, `${who.user.role} ${method} ${url}`).toBe(403);
      }
    }
    expect((await call('GET', BASE, null)).statusCode).toBe(401);
    expect((await call('GET', `${BASE}/${id}`, admin)).json()).toMatchObject({ displayName: 'Loja' });
  });

  it('an Admin of a domain that is not premium is refused', async () => {
    const res = await call('GET', BASE, plainAdmin);
    expect(res.statusCode).toBe(403);
    expect((await call('POST', BASE, plainAdmin, { displayName: 'x' })).statusCode).toBe(403);
  });

  it("another domain's Admin sees nothing of them and changes nothing", async () => {
    const va = await create(admin, { displayName: 'Privada' });
    const id = va.virtualAccountId;
    const list = await call('GET', BASE, otherAdmin);
    expect(list.statusCode).toBe(200);
    expect((list.json() as VirtualAccount[]).map((v) => v.virtualAccountId)).not.toContain(id);
    // `?domain=` is a SuperAdmin's alone.
    expect((await call('GET', `${BASE}?domain=${premium.domain.id}`, otherAdmin)).statusCode).toBe(403);
    for (const [method, url, payload] of [
      ['GET', `${BASE}/${id}`, undefined],
      ['PUT', `${BASE}/${id}`, { displayName: 'Tomada' }],
      ['DELETE', `${BASE}/${id}`, undefined],
      ['POST', `${BASE}/${id}/secret`, undefined],
    ] as const) {
      const res = await call(method, url, otherAdmin, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(errorOf(res).code).toBe('NOT_FOUND');
    }
    const still = VirtualAccountSchema.parse((await call('GET', `${BASE}/${id}`, admin)).json());
    expect(still.displayName).toBe('Privada');
  });

  it('a SuperAdmin manages any domain’s embeds', async () => {
    const va = await create(admin, { displayName: 'Da casa' });
    const list = await call('GET', `${BASE}?domain=${premium.domain.id}`, superAdmin);
    expect((list.json() as VirtualAccount[]).map((v) => v.virtualAccountId)).toContain(va.virtualAccountId);
    const put = await call('PUT', `${BASE}/${va.virtualAccountId}`, superAdmin, { welcome: 'Olá!' });
    expect(put.statusCode, put.body).toBe(200);
    expect(VirtualAccountSchema.parse(put.json()).welcome).toBe('Olá!');
    const made = await create(
      superAdmin,
      { displayName: 'Feita pelo SuperAdmin' },
      `?domain=${premium.domain.id}`,
    );
    expect(made.domain).toBe(premium.domain.id);
    expect(
      (await call('POST', `${BASE}?domain=nope.example`, superAdmin, { displayName: 'x' })).statusCode,
    ).toBe(404);
  });
});

describe('virtual accounts: what they hold', () => {
  it('allowed sites must be exact origins', async () => {
    for (const bad of [
      'shop.example.com',
      'https://shop.example.com/',
      'https://shop.example.com/path',
      'https://*.example.com',
      'ftp://shop.example.com',
      'https://user:pw@shop.example.com',
      'javascript:alert(1)',
    ]) {
      const res = await call('POST', BASE, admin, { displayName: 'x', allowedOrigins: [bad] });
      expect(res.statusCode, bad).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    const ok = await create(admin, {
      allowedOrigins: ['https://shop.example.com', 'http://127.0.0.1:8080', 'https://shop.example.com'],
    });
    expect(ok.allowedOrigins).toEqual(['https://shop.example.com', 'http://127.0.0.1:8080']);
  });

  it('bad bodies are refused and change nothing', async () => {
    const va = await create(admin, { displayName: 'Estável' });
    const url = `${BASE}/${va.virtualAccountId}`;
    for (const body of [
      {},
      { displayName: '' },
      { color: 'red' },
      { identity: 'magic' },
      { limits: { messagesPerMinute: 0, messagesPerDay: 10 } },
      { limits: { messagesPerMinute: 5 } },
      { unknown: true },
      { agentId: 'no-such-santito' },
      { secret: 'mine' },
    ]) {
      const res = await call('PUT', url, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('POST', BASE, admin, { displayName: 'x', agentId: 'nope' })).statusCode).toBe(400);
    const after = VirtualAccountSchema.parse((await call('GET', url, admin)).json());
    expect(after).toMatchObject({
      displayName: 'Estável',
      color: '#1565c0',
      identity: 'anonymous',
      agentId: null,
    });
  });

  it("its santito must be one of the embed's own domain", async () => {
    const ours = await makeSantito(t.ctx, admin);
    const theirs = await makeSantito(t.ctx, otherAdmin);
    expect((await call('POST', BASE, admin, { displayName: 'x', agentId: theirs.id })).statusCode).toBe(400);
    const va = await create(admin, { agentId: ours.id, color: '#AA00ff', identity: 'signed' });
    expect(va).toMatchObject({ agentId: ours.id, color: '#aa00ff', identity: 'signed' });
  });

  it('pausing, editing, rotating and deleting are audited, without the secret, and announced', async () => {
    const seen: unknown[] = [];
    const unsubscribe = t.ctx.bus.subscribe(VIRTUAL_ACCOUNT_CHANGED, (m) => seen.push(m));
    try {
      const va = await create(admin, { displayName: 'Auditada' });
      const id = va.virtualAccountId;
      const paused = await call('PUT', `${BASE}/${id}`, admin, { active: false });
      expect(VirtualAccountSchema.parse(paused.json()).active).toBe(false);

      const rotated = await call('POST', `${BASE}/${id}/secret`, admin);
      expect(rotated.statusCode).toBe(200);
      const next = VirtualAccountWithSecretSchema.parse(rotated.json());
      expect(next.secret).toMatch(/^[0-9a-f]{64}$/);
      expect(next.secret).not.toBe(va.secret);

      expect((await call('DELETE', `${BASE}/${id}`, admin)).statusCode).toBe(204);
      expect((await call('GET', `${BASE}/${id}`, admin)).statusCode).toBe(404);

      const log = await call('GET', `/api/v1/audit?targetId=${id}`, admin);
      const entries = (log.json() as unknown[]).map((e) => AuditEntrySchema.parse(e));
      expect(entries.map((e) => e.action).sort()).toEqual([
        'virtual_account.create',
        'virtual_account.delete',
        'virtual_account.secret.rotate',
        'virtual_account.update',
      ]);
      const update = entries.find((e) => e.action === 'virtual_account.update')!;
      expect(update.before).toMatchObject({ active: true });
      expect(update.after).toMatchObject({ active: false });
      const text = JSON.stringify(entries);
      expect(text).not.toContain(va.secret);
      expect(text).not.toContain(next.secret);

      await new Promise((r) => setTimeout(r, 50));
      expect(seen).toContainEqual({ virtualAccountId: id });
    } finally {
      unsubscribe();
    }
  });

  it('lists its domain’s embeds by name', async () => {
    const d = await makeDomain(t.ctx, { premium: true });
    const a = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    await create(a, { displayName: 'beta' });
    await create(a, { displayName: 'Alfa' });
    const list = (await call('GET', BASE, a)).json() as unknown[];
    expect(list.map((v) => VirtualAccountSchema.parse(v).displayName)).toEqual(['Alfa', 'beta']);
  });
});
