import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgeChunks } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { fixtureEmbedding, type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { indexText, searchKnowledge } from './indexer.ts';
import { newDocumentId, newSourceId } from './service.ts';
import { knowledgeStore } from './store.ts';

let fx: LlmFixture;
let t: TestApp;
let a: TestDomain;
let b: TestDomain;
let noModel: TestDomain;
let adminA: TestUser;

const PAGES: Record<string, string> = {
  'Vacation policy':
    '# Vacation\n\nEmployees get thirty days of paid vacation per year. Ask your manager two weeks ahead.',
  'Expense reports':
    '# Expenses\n\nSubmit receipts for travel expenses within ten days through the finance portal.',
  'VPN setup':
    '# VPN\n\n## Install\n\nInstall the WireGuard client and import the configuration file from IT.',
  Onboarding: '# First week\n\nMeet your buddy, get your laptop, and read the security handbook.',
};

async function sourceWith(domain: TestDomain, pages: Record<string, string>): Promise<string> {
  const store = knowledgeStore(t.ctx.db);
  const sourceId = newSourceId();
  await store.insert({ id: sourceId, domainId: domain.domain.id, kind: 'files', displayName: 'Docs' });
  for (const [title, text] of Object.entries(pages)) {
    const documentId = newDocumentId();
    await store.insertDocument({
      id: documentId,
      domainId: domain.domain.id,
      sourceId,
      title,
      url: `https://docs/${encodeURIComponent(title)}`,
    });
    await indexText(t.ctx, { domainId: domain.domain.id, sourceId, documentId, title }, text);
  }
  return sourceId;
}

/** Connects the model fixture (with its embedding model) as a provider of `who`'s domain. */
async function connectFixture(who: TestUser): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/settings/providers',
    headers: who.headers,
    payload: { kind: 'openai-compatible', label: 'Fixture', baseUrl: fx.baseUrl, apiKey: 'k-123456789012' },
  });
  expect(res.statusCode, res.body).toBe(201);
}

beforeAll(async () => {
  fx = await startLlmFixture({ models: ['fixture-small', 'fixture-embed'] });
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}` });
  a = await makeDomain(t.ctx, { premium: true });
  b = await makeDomain(t.ctx, { premium: true });
  noModel = await makeDomain(t.ctx, { premium: true });
  adminA = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  await connectFixture(adminA);
  await connectFixture(await makeUser(t.ctx, { domain: b, role: 'Admin' }));
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
}, 60_000);

describe('indexing', () => {
  it('stores heading-aware chunks with unit embeddings from the domain’s provider, batched', async () => {
    const before = fx.requests.filter((r) => r.path === '/v1/embeddings').length;
    const sourceId = await sourceWith(a, PAGES);
    const embedCalls = fx.requests.filter((r) => r.path === '/v1/embeddings');
    expect(embedCalls.length - before).toBe(Object.keys(PAGES).length);
    const rows = await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.sourceId, sourceId));
    expect(rows.length).toBe(4);
    const vpn = rows.find((r) => r.heading === 'VPN › Install');
    expect(vpn?.text).toContain('WireGuard');
    expect(vpn?.embeddingModel).toMatch(/:fixture-embed$/);
    const norm = Math.hypot(...(vpn?.embedding ?? []));
    expect(norm).toBeCloseTo(1, 4);
    // The vector is the fixture's embedding of title + headings + text.
    const expected = fixtureEmbedding(`VPN setup\nVPN › Install\n${vpn?.text}`);
    expect(vpn?.embedding[0]).toBeCloseTo(expected[0] ?? 0, 5);
  });
});

describe('hybrid retrieval', () => {
  it('finds the passage that answers a question, by meaning and by keyword', async () => {
    const sourceId = await sourceWith(a, PAGES);
    const hits = await searchKnowledge(
      t.ctx,
      a.domain.id,
      [sourceId],
      'How many vacation days do employees get?',
      3,
    );
    expect(hits[0]?.title).toBe('Vacation policy');
    expect(hits[0]?.url).toBe('https://docs/Vacation%20policy');
    const vpn = await searchKnowledge(t.ctx, a.domain.id, [sourceId], 'wireguard', 2);
    expect(vpn[0]?.title).toBe('VPN setup');
    // Accents fold on both sides: "férias" finds "ferias".
    const pt = await sourceWith(a, {
      Férias: '# Férias\n\nCada colaborador tem trinta dias de ferias por ano.',
    });
    expect((await searchKnowledge(t.ctx, a.domain.id, [pt], 'quantos dias de férias?', 1))[0]?.title).toBe(
      'Férias',
    );
  });

  it('never answers from another domain’s sources, even when given their ids', async () => {
    const secret = await sourceWith(b, {
      'Secret plan': '# Plan\n\nThe vacation plan of domain B is secret.',
    });
    expect(await searchKnowledge(t.ctx, a.domain.id, [secret], 'vacation plan', 5)).toEqual([]);
    expect((await searchKnowledge(t.ctx, b.domain.id, [secret], 'vacation plan', 5))[0]?.title).toBe(
      'Secret plan',
    );
  });

  it('embeds a question asked again only once, per domain', async () => {
    const sourceId = await sourceWith(a, { Gamma: 'Gamma keeps the badge printer codes.' });
    const calls = () => fx.requests.filter((r) => r.path === '/v1/embeddings').length;
    const before = calls();
    const first = await searchKnowledge(t.ctx, a.domain.id, [sourceId], 'badge printer codes?', 1);
    const again = await searchKnowledge(t.ctx, a.domain.id, [sourceId], 'badge printer codes?', 1);
    expect(calls() - before).toBe(1);
    expect(again).toEqual(first);
    // Another domain's question is its own, even in the same words.
    await searchKnowledge(t.ctx, b.domain.id, [sourceId], 'badge printer codes?', 1);
    expect(calls() - before).toBe(2);
  });

  it('answers only from the sources asked for', async () => {
    const one = await sourceWith(a, { Alpha: 'Alpha talks about zebras.' });
    const two = await sourceWith(a, { Beta: 'Beta talks about zebras too.' });
    const hits = await searchKnowledge(t.ctx, a.domain.id, [two], 'zebras', 5);
    expect(hits.map((h) => h.sourceId)).toEqual([two]);
    expect(hits.map((h) => h.sourceId)).not.toContain(one);
  });

  it('without an embedding model, indexes for and answers by keyword', async () => {
    const sourceId = await sourceWith(noModel, PAGES);
    const rows = await t.ctx.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.sourceId, sourceId));
    expect(rows.every((r) => r.embedding.length === 0 && r.embeddingModel === '')).toBe(true);
    const hits = await searchKnowledge(t.ctx, noModel.domain.id, [sourceId], 'receipts travel', 2);
    expect(hits[0]?.title).toBe('Expense reports');
  });

  it('an embedding failure keeps what was indexed before', async () => {
    const store = knowledgeStore(t.ctx.db);
    const sourceId = await sourceWith(a, { Keep: 'Original text about llamas.' });
    const [doc] = await store.allDocuments(a.domain.id, sourceId);
    fx.setScript({ status: 500 });
    try {
      await expect(
        indexText(
          t.ctx,
          { domainId: a.domain.id, sourceId, documentId: doc!.id, title: 'Keep' },
          'New text about alpacas.',
        ),
      ).rejects.toThrow(/embedding model/);
    } finally {
      fx.reset();
      fx.setModels(['fixture-small', 'fixture-embed']);
    }
    const hits = await searchKnowledge(t.ctx, a.domain.id, [sourceId], 'llamas', 1);
    expect(hits[0]?.text).toContain('llamas');
  });
});
