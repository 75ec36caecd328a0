import {
  AuditEntrySchema,
  ErrorBodySchema,
  type KnowledgeSource,
  KnowledgeSourceSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, knowledgeSources } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';

const TOKEN = 'ATATT3xFfGF0-THIS-IS-SECRET-0123456789';
const BASE = '/api/v1/integration/knowledge';

let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let otherAdmin: TestUser;
let superAdmin: TestUser;
let plainAdmin: TestUser;

const errorOf = (res: LightMyRequestResponse) => ErrorBodySchema.parse(res.json()).error;

const confluenceBody = (over: Record<string, unknown> = {}) => ({
  kind: 'confluence',
  displayName: 'Wiki',
  confluence: {
    baseUrl: 'http://127.0.0.1:9/wiki',
    email: 'bot@acme.com.br',
    apiToken: TOKEN,
    spaces: ['ENG'],
  },
  ...over,
});

async function create(who: TestUser, body: unknown, query = ''): Promise<KnowledgeSource> {
  const res = await t.call('POST', `${BASE}${query}`, who, body);
  expect(res.statusCode, res.body).toBe(201);
  return KnowledgeSourceSchema.strict().parse(res.json());
}

beforeAll(async () => {
  // Loopback is allowed like a self-hosted Confluence on the Admin's allowlist; the strict rule is tested below.
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: '127.0.0.1:9' });
  a = await makeDomain(t.ctx, { premium: true });
  b = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  editor = await makeUser(t.ctx, { domain: a, role: 'Editor' });
  viewer = await makeUser(t.ctx, { domain: a });
  otherAdmin = await makeUser(t.ctx, { domain: b, role: 'Admin' });
  superAdmin = await makeUser(t.ctx, {
    role: 'SuperAdmin',
    domain: await makeDomain(t.ctx, { premium: true }),
  });
  plainAdmin = await makeUser(t.ctx, { role: 'Admin', domain: await makeDomain(t.ctx) });
}, 120_000);

afterAll(async () => {
  await t?.close();
}, 60_000);

describe('knowledge sources are for Admins of a premium domain', () => {
  it('refuses Viewers, Editors and Admins of a domain that is not premium, on every endpoint', async () => {
    for (const who of [viewer, editor, plainAdmin]) {
      for (const [method, url, body] of [
        ['GET', BASE, undefined],
        ['POST', BASE, { kind: 'files', displayName: 'Docs' }],
        ['GET', `${BASE}/ks0`, undefined],
        ['PUT', `${BASE}/ks0`, { displayName: 'x' }],
        ['DELETE', `${BASE}/ks0`, undefined],
        ['GET', `${BASE}/ks0/documents`, undefined],
        ['DELETE', `${BASE}/ks0/documents/kd0`, undefined],
      ] as const) {
        const res = await t.call(method, url, who, body);
        expect(res.statusCode, `${who.user.role} ${method} ${url}`).toBe(403);
      }
    }
    expect((await t.app.inject({ url: BASE })).statusCode).toBe(401);
  });

  it('an Admin of another domain can neither list, read, change nor delete a source', async () => {
    const mine = await create(admin, { kind: 'files', displayName: 'Handbook' });
    const list = (await t.call('GET', BASE, otherAdmin)).json() as KnowledgeSource[];
    expect(list.map((s) => s.sourceId)).not.toContain(mine.sourceId);
    for (const [method, url, body] of [
      ['GET', `${BASE}/${mine.sourceId}`, undefined],
      ['PUT', `${BASE}/${mine.sourceId}`, { displayName: 'hijacked' }],
      ['DELETE', `${BASE}/${mine.sourceId}`, undefined],
      ['GET', `${BASE}/${mine.sourceId}/documents`, undefined],
    ] as const) {
      expect((await t.call(method, url, otherAdmin, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await t.call('GET', `${BASE}?domain=${a.domain.id}`, otherAdmin)).statusCode).toBe(403);
    const still = KnowledgeSourceSchema.parse(
      (await t.call('GET', `${BASE}/${mine.sourceId}`, admin)).json(),
    );
    expect(still.displayName).toBe('Handbook');
  });

  it('a SuperAdmin manages any domain’s sources with ?domain=', async () => {
    const made = await create(
      superAdmin,
      { kind: 'files', displayName: 'Policies' },
      `?domain=${b.domain.id}`,
    );
    expect(made.domain).toBe(b.domain.id);
    const seen = (await t.call('GET', BASE, otherAdmin)).json() as KnowledgeSource[];
    expect(seen.map((s) => s.sourceId)).toContain(made.sourceId);
    const missing = await t.call('GET', `${BASE}?domain=nowhere.example`, superAdmin);
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).code).toBe('DOMAIN_NOT_FOUND');
  });
});

describe('a Confluence source', () => {
  it('stores the API token sealed and never sends it back', async () => {
    const made = await create(admin, confluenceBody());
    expect(made).toMatchObject({
      kind: 'confluence',
      // Its first sync has started (and fails in the background: nothing listens at :9).
      status: 'syncing',
      documents: 0,
      chunks: 0,
      confluence: {
        baseUrl: 'http://127.0.0.1:9',
        email: 'bot@acme.com.br',
        hasApiToken: true,
        spaces: ['ENG'],
      },
    });
    for (const res of [
      await t.call('GET', BASE, admin),
      await t.call('GET', `${BASE}/${made.sourceId}`, admin),
      await t.call('PUT', `${BASE}/${made.sourceId}`, admin, { displayName: 'Wiki 2' }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(TOKEN);
    }
    const [row] = await t.ctx.db
      .select()
      .from(knowledgeSources)
      .where(eq(knowledgeSources.id, made.sourceId));
    expect(row?.apiTokenEnc).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(t.ctx.services.knowledge.openToken(row!)).toBe(TOKEN);
  });

  it('an empty token keeps the stored one; a new one replaces it', async () => {
    const made = await create(admin, confluenceBody());
    const kept = await t.call('PUT', `${BASE}/${made.sourceId}`, admin, {
      confluence: { apiToken: '', spaces: ['ENG', 'OPS'] },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(KnowledgeSourceSchema.parse(kept.json()).confluence?.spaces).toEqual(['ENG', 'OPS']);
    const read = async () =>
      t.ctx.services.knowledge.openToken(
        (await t.ctx.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, made.sourceId)))[0]!,
      );
    expect(await read()).toBe(TOKEN);
    await t.call('PUT', `${BASE}/${made.sourceId}`, admin, { confluence: { apiToken: 'new-token-abc' } });
    expect(await read()).toBe('new-token-abc');
  });

  it('refuses a base URL that breaks the SSRF rule, and bad bodies, changing nothing', async () => {
    const before = ((await t.call('GET', BASE, admin)).json() as KnowledgeSource[]).length;
    for (const url of ['http://10.0.0.8/wiki', 'http://169.254.169.254', 'http://localhost:8090']) {
      const res = await t.call(
        'POST',
        BASE,
        admin,
        confluenceBody({ confluence: { ...confluenceBody().confluence, baseUrl: url } }),
      );
      expect(res.statusCode, url).toBe(400);
      expect(JSON.stringify(res.json())).toContain('url_blocked');
    }
    for (const body of [
      { kind: 'confluence', displayName: 'x' },
      { kind: 'files', displayName: '' },
      { kind: 'web', displayName: 'x' },
      { kind: 'files', displayName: 'x', extra: 1 },
      confluenceBody({ confluence: { ...confluenceBody().confluence, spaces: [] } }),
      confluenceBody({ confluence: { ...confluenceBody().confluence, spaces: ['a b'] } }),
      confluenceBody({ confluence: { ...confluenceBody().confluence, baseUrl: 'ftp://x.example' } }),
      confluenceBody({ confluence: { ...confluenceBody().confluence, baseUrl: 'https://u:p@x.example' } }),
    ]) {
      const res = await t.call('POST', BASE, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const files = await create(admin, { kind: 'files', displayName: 'F' });
    const res = await t.call('PUT', `${BASE}/${files.sourceId}`, admin, { confluence: { spaces: ['X'] } });
    expect(res.statusCode).toBe(400);
    expect(((await t.call('GET', BASE, admin)).json() as KnowledgeSource[]).length).toBe(before + 1);
  });
});

describe('audit', () => {
  it('records create, update and delete without the token', async () => {
    const d = await makeDomain(t.ctx, { premium: true });
    const dAdmin = await makeUser(t.ctx, { domain: d, role: 'Admin' });
    const made = await create(dAdmin, confluenceBody());
    await t.call('PUT', `${BASE}/${made.sourceId}`, dAdmin, {
      displayName: 'Renamed',
      confluence: { apiToken: 'zzz-new' },
    });
    expect((await t.call('DELETE', `${BASE}/${made.sourceId}`, dAdmin)).statusCode).toBe(204);
    expect((await t.call('GET', `${BASE}/${made.sourceId}`, dAdmin)).statusCode).toBe(404);
    const rows = await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.domainId, d.domain.id));
    const res = await t.call('GET', '/api/v1/audit?targetType=knowledge', dAdmin);
    expect(res.statusCode, res.body).toBe(200);
    const entries = (res.json() as unknown[]).map((e) => AuditEntrySchema.parse(e));
    expect(entries.map((e) => e.action).sort()).toEqual([
      'knowledge.create',
      'knowledge.delete',
      'knowledge.update',
    ]);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(JSON.stringify(rows)).not.toContain('zzz-new');
    const update = entries.find((e) => e.action === 'knowledge.update');
    expect(update?.after).toMatchObject({ displayName: 'Renamed', keyReplaced: true });
  });
});
