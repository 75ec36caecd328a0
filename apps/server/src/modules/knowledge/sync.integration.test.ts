import {
  ConfluenceTestResultSchema,
  type KnowledgeDocument,
  type KnowledgeSource,
  KnowledgeSourceSchema,
} from '@assistente/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWLEDGE_SEARCH_INDEX } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { type ConfluenceStandin, startConfluenceStandin } from '../../test/confluence-standin.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { searchKnowledge } from './indexer.ts';
import { mergePendingSearch } from './upkeep.ts';

const BASE = '/api/v1/integration/knowledge';

let fx: LlmFixture;
let cf: ConfluenceStandin;
let t: TestApp;
let a: TestDomain;
let admin: TestUser;

async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });
}
const settings = (over: Record<string, unknown> = {}) => ({
  baseUrl: `${cf.url}/wiki`,
  email: cf.email,
  apiToken: cf.token,
  spaces: ['ENG', 'HR'],
  ...over,
});
async function sourceNow(id: string): Promise<KnowledgeSource> {
  return KnowledgeSourceSchema.parse((await api('GET', `${BASE}/${id}`)).json());
}
/** "Sync now", then waits for the source to leave `syncing`. */
async function syncNow(id: string): Promise<KnowledgeSource> {
  const res = await api('POST', `${BASE}/${id}/sync`);
  expect(res.statusCode, res.body).toBe(202);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const s = await sourceNow(id);
    if (s.status !== 'syncing') return s;
    if (Date.now() > deadline) throw new Error('sync did not end');
    await new Promise((r) => setTimeout(r, 50));
  }
}
async function documents(id: string): Promise<KnowledgeDocument[]> {
  return (await api('GET', `${BASE}/${id}/documents?limit=200`)).json() as KnowledgeDocument[];
}
const embedCalls = () => fx.requests.filter((r) => r.path === '/v1/embeddings').length;
/** The page ids whose bodies were asked for in the Confluence requests from index `from` on. */
const bodiesAskedFor = (from: number) =>
  cf.requests
    .slice(from)
    .filter((p) => p.startsWith('/wiki/api/v2/pages?'))
    .map((p) => new URL(p, cf.url).searchParams)
    .filter((q) => q.get('body-format') === 'storage')
    .flatMap((q) => (q.get('id') ?? '').split(','))
    .filter((v, i, all) => all.indexOf(v) === i)
    .sort();

beforeAll(async () => {
  fx = await startLlmFixture({ models: ['fixture-small', 'fixture-embed'] });
  cf = await startConfluenceStandin();
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port},127.0.0.1:${cf.port}` });
  a = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  await api('POST', '/api/v1/settings/providers', {
    kind: 'openai-compatible',
    label: 'F',
    baseUrl: fx.baseUrl,
  });
  cf.addSpace('ENG', 'Engineering');
  cf.addSpace('HR', 'People');
  cf.addSpace('SECRET', 'Not followed');
  cf.putPage('ENG', {
    id: '1',
    title: 'Deploy guide',
    body: '<h1>Deploy</h1><p>Run <code>make ship</code> on Fridays.</p>',
  });
  cf.putPage('ENG', { id: '2', title: 'On-call', body: '<h2>Rota</h2><ul><li>Ana</li><li>Bruno</li></ul>' });
  cf.putPage('ENG', { id: '3', title: 'Old page', body: '<p>Obsolete mainframe notes.</p>' });
  cf.putPage('HR', {
    id: '4',
    title: 'Vacation',
    body: '<p>Thirty days of vacation.</p><table><tr><th>Year</th><th>Days</th></tr><tr><td>1</td><td>30</td></tr></table>',
  });
  cf.putPage('SECRET', { id: '9', title: 'Secret', body: '<p>Not to be synced.</p>' });
  // Two results per API page: every list is read through `_links.next`.
  cf.setMaxPageSize(2);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await cf?.close();
  await fx?.close();
}, 60_000);

describe('Confluence', () => {
  it('"test connection" tells how many pages each space has, and what is missing', async () => {
    const res = await api('POST', `${BASE}/test-connection`, settings({ spaces: ['ENG', 'HR', 'NOPE'] }));
    expect(res.statusCode, res.body).toBe(200);
    expect(ConfluenceTestResultSchema.parse(res.json())).toEqual({
      ok: true,
      spaces: [
        { key: 'ENG', name: 'Engineering', pages: 3 },
        { key: 'HR', name: 'People', pages: 1 },
      ],
      missing: ['NOPE'],
    });
    const bad = ConfluenceTestResultSchema.parse(
      (await api('POST', `${BASE}/test-connection`, settings({ apiToken: 'wrong' }))).json(),
    );
    expect(bad).toMatchObject({
      ok: false,
      message: 'Confluence refused the e-mail and API token',
      reason: { kind: 'unauthorised' },
    });
    const blocked = await api(
      'POST',
      `${BASE}/test-connection`,
      settings({ baseUrl: 'http://10.1.2.3/wiki' }),
    );
    expect(blocked.statusCode).toBe(400);
  });

  let id: string;
  it('the first sync indexes every page of the chosen spaces, with links to Confluence', async () => {
    const made = await api('POST', BASE, { kind: 'confluence', displayName: 'Wiki', confluence: settings() });
    expect(made.statusCode, made.body).toBe(201);
    const created = KnowledgeSourceSchema.parse(made.json());
    id = created.sourceId;
    // Its first sync starts with the answer, not at the scheduler's next round.
    expect(created.status).toBe('syncing');
    await expect.poll(async () => (await sourceNow(id)).status, { timeout: 30_000 }).toBe('idle');
    const s = await sourceNow(id);
    expect(s).toMatchObject({ status: 'idle', documents: 4 });
    expect(s.lastSyncAt).not.toBeNull();
    expect(s.error).toBeUndefined();
    const docs = await documents(id);
    expect(docs.map((d) => d.title).sort()).toEqual(['Deploy guide', 'Old page', 'On-call', 'Vacation']);
    expect(docs.find((d) => d.title === 'Deploy guide')?.url).toBe(
      `${cf.url}/wiki/spaces/ENG/pages/1/Deploy+guide`,
    );
    // Its chunks merged into the full-text index, not left in the list every question reads.
    expect(await mergePendingSearch(t.ctx.db)).toBe(0);
    const hits = await searchKnowledge(t.ctx, a.domain.id, [id], 'how do we ship on fridays', 1);
    expect(hits[0]?.title).toBe('Deploy guide');
    expect(hits[0]?.text).toContain('make ship');
    // Paged through `_links.next`, never touching a space it was not given.
    expect(cf.requests.some((p) => p.includes('cursor='))).toBe(true);
    // Listed without bodies, at the API's largest page; the bodies then asked for by id.
    const listings = cf.requests.filter((p) => /^\/wiki\/api\/v2\/spaces\/\d+\/pages\?/.test(p));
    expect(listings.length).toBeGreaterThan(0);
    for (const p of listings) {
      expect(p).not.toContain('body-format');
      expect(new URL(p, cf.url).searchParams.get('limit')).toBe('250');
    }
    expect(bodiesAskedFor(0)).toEqual(['1', '2', '3', '4']);
    expect(cf.requests.some((p) => p.startsWith('/wiki/api/v2/spaces?keys=ENG%2CHR'))).toBe(true);
    expect(cf.requests.some((p) => p.includes('/spaces/1002/'))).toBe(false);
    const titles = (await searchKnowledge(t.ctx, a.domain.id, [id], 'secret not to be synced', 5)).map(
      (h) => h.title,
    );
    expect(titles).not.toContain('Secret');
  });

  it('syncs again only what changed, and removes what was deleted', async () => {
    cf.putPage('ENG', {
      id: '1',
      title: 'Deploy guide',
      body: '<p>Run <code>make release</code> on Thursdays.</p>',
    });
    cf.deletePage('ENG', '3');
    cf.putPage('HR', { id: '5', title: 'Parental leave', body: '<p>Six months of parental leave.</p>' });
    const before = embedCalls();
    const asked = cf.requests.length;
    const s = await syncNow(id);
    expect(s).toMatchObject({ status: 'idle', documents: 4 });
    // The edited and the new page only: no other body is even downloaded.
    expect(embedCalls() - before).toBe(2);
    expect(bodiesAskedFor(asked)).toEqual(['1', '5']);
    const titles = (await documents(id)).map((d) => d.title).sort();
    expect(titles).toEqual(['Deploy guide', 'On-call', 'Parental leave', 'Vacation']);
    expect((await searchKnowledge(t.ctx, a.domain.id, [id], 'thursdays release', 1))[0]?.text).toContain(
      'make release',
    );
    const left = await searchKnowledge(t.ctx, a.domain.id, [id], 'obsolete mainframe notes', 5);
    expect(left.map((h) => h.title)).not.toContain('Old page');
  });

  it('waits out a 429 as Retry-After says, while listing and while fetching bodies', async () => {
    cf.putPage('ENG', { id: '2', title: 'On-call', body: '<p>Carla is on call.</p>' });
    cf.rateLimitNext(1, 1);
    let limitedBodies = 0;
    cf.onRequest((path) => {
      if (limitedBodies === 0 && path.startsWith('/wiki/api/v2/pages?')) {
        limitedBodies++;
        cf.rateLimitNext(1, 1);
      }
    });
    const started = Date.now();
    const s = await syncNow(id).finally(() => cf.onRequest(null));
    expect(s.status).toBe('idle');
    expect(limitedBodies).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect((await searchKnowledge(t.ctx, a.domain.id, [id], 'carla', 1))[0]?.title).toBe('On-call');
  });

  it('a failing sync shows its error and keeps what the source had', async () => {
    cf.rotateToken('revoked-and-replaced');
    const s = await syncNow(id);
    expect(s).toMatchObject({
      status: 'error',
      error: 'Confluence refused the e-mail and API token',
      errorReason: { kind: 'unauthorised' },
      documents: 4,
    });
    expect((await searchKnowledge(t.ctx, a.domain.id, [id], 'vacation', 1))[0]?.title).toBe('Vacation');
    // A new token mends it.
    await api('PUT', `${BASE}/${id}`, { confluence: { apiToken: 'revoked-and-replaced' } });
    const mended = await syncNow(id);
    expect(mended.status).toBe('idle');
    expect(mended.errorReason).toBeUndefined();
  });

  it('upkeep the database refuses after a sync fails no sync', async () => {
    // The merge names the full-text index: under another name, the database refuses it.
    await t.ctx.db.execute(
      sql`alter index ${sql.identifier(KNOWLEDGE_SEARCH_INDEX)} rename to kc_search_renamed`,
    );
    try {
      cf.putPage('ENG', { id: '2', title: 'On-call', body: '<p>Dora is on call.</p>' });
      const s = await syncNow(id);
      expect(s).toMatchObject({ status: 'idle', documents: 4 });
      expect(s.error).toBeUndefined();
    } finally {
      await t.ctx.db.execute(
        sql`alter index kc_search_renamed rename to ${sql.identifier(KNOWLEDGE_SEARCH_INDEX)}`,
      );
    }
    expect((await searchKnowledge(t.ctx, a.domain.id, [id], 'dora', 1))[0]?.title).toBe('On-call');
  });
});
