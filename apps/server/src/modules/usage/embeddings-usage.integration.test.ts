import { KnowledgeSourceSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageEvents } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { postFile } from '../../test/chats.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { searchKnowledge } from '../knowledge/indexer.ts';

// Knowledge embeddings are model calls too (docs/ARCHITECTURE.md#usage-prices-and-budgets): a
// document's and a question's each settle one ledger row, with no person, the tokens the provider reported.

const BASE = '/api/v1/integration/knowledge';
let fx: LlmFixture;
let t: TestApp;
let a: TestDomain;
let admin: TestUser;

beforeAll(async () => {
  fx = await startLlmFixture({ models: ['fixture-small', 'fixture-embed'] });
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port}` });
  a = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  const res = await t.call('POST', '/api/v1/settings/providers', admin, {
    kind: 'openai-compatible',
    label: 'Fixture',
    baseUrl: fx.baseUrl,
  });
  expect(res.statusCode, res.body).toBe(201);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
});

const embeddingRows = () => t.ctx.db.select().from(usageEvents).where(eq(usageEvents.domainId, a.domain.id));

describe('knowledge embeddings in the ledger', () => {
  it('an upload writes one embedding row, and so does a question’s search', async () => {
    const made = await t.call('POST', BASE, admin, { kind: 'files', displayName: 'Handbook' });
    const sourceId = KnowledgeSourceSchema.parse(made.json()).sourceId;
    const res = await postFile(t.app, `${BASE}/${sourceId}/documents`, admin, {
      name: 'lunch.txt',
      type: 'text/plain',
      data: 'Lunch is served at noon in the canteen.',
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.ctx.services.knowledge.ingest.idle();
    const afterUpload = await embeddingRows();
    expect(afterUpload).toHaveLength(1);
    expect(afterUpload[0]).toMatchObject({
      source: 'embedding',
      userId: null,
      apiKeyId: null,
      outputTokens: 0,
      inputTokens: 1, // the fixture reports a token per text: one passage
    });
    expect(afterUpload[0]?.model).toMatch(/:fixture-embed$/);

    await searchKnowledge(t.ctx, a.domain.id, [sourceId], 'when is lunch', 3);
    const afterSearch = await embeddingRows();
    expect(afterSearch).toHaveLength(2);
    expect(afterSearch.every((r) => r.source === 'embedding')).toBe(true);
  });
});
