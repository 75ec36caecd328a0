import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, type TestDomain } from '../../test/factories.ts';
import { commonTerms, retrieve } from './retrieval.ts';
import { newDocumentId, newSourceId } from './service.ts';
import { knowledgeStore } from './store.ts';

let t: TestApp;
let a: TestDomain;
let sourceId: string;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeDomain(t.ctx, { premium: true });
  const store = knowledgeStore(t.ctx.db);
  sourceId = newSourceId();
  const domainId = a.domain.id;
  await store.insert({ id: sourceId, domainId, kind: 'files', displayName: 'Manual' });
  const documentId = newDocumentId();
  await store.insertDocument({ id: documentId, domainId, sourceId, title: 'Manual', url: 'https://m' });
  // 12,000 chunks: every one says "the", one in three "printer", one alone "toner"; 226 each say
  // "alpha", "beta" or "gamma" (under 2 %: not common), and only the 11,990th both "alpha" and "beta".
  await t.ctx.db.execute(sql`
    insert into knowledge_chunks (id, domain_id, source_id, document_id, ord, text, embedding)
    select 'kw' || g, ${domainId}, ${sourceId}, ${documentId}, g,
      'the manual part ' || g || case when g % 3 = 0 then ' printer' else '' end
        || case when g = 7777 then ' toner' else '' end
        || case when g % 53 = 1 or g = 11990 then ' alpha' else '' end
        || case when g % 53 = 2 or g = 11990 then ' beta' else '' end
        || case when g % 53 = 3 then ' gamma' else '' end,
      '{}'::real[]
    from generate_series(1, 12000) g`);
  await t.ctx.db.execute(sql`analyze knowledge_chunks`);
}, 120_000);

afterAll(async () => {
  await t?.close();
}, 60_000);

describe('common words', () => {
  it('are read from the statistics of the full-text column', async () => {
    const common = await commonTerms(t.ctx.db);
    expect(common.has('the')).toBe(true);
    expect(common.has('printer')).toBe(true);
    expect(common.has('toner')).toBe(false);
  });

  it('do not drown the telling word of a question', async () => {
    const hits = await retrieve(t.ctx.db, a.domain.id, [sourceId], 'the printer toner', { limit: 3 });
    expect(hits[0]?.text).toContain('toner');
  });

  it('still find passages when a question has nothing else', async () => {
    const hits = await retrieve(t.ctx.db, a.domain.id, [sourceId], 'the printer', { limit: 3 });
    expect(hits).toHaveLength(3);
    expect(hits.every((h) => h.text.includes('printer'))).toBe(true);
  });

  it('rank first a passage with two of the words, however many have one', async () => {
    // 679 passages have one of the three words; the one with two comes last in the table.
    const hits = await retrieve(t.ctx.db, a.domain.id, [sourceId], 'alpha beta gamma', { limit: 1 });
    expect(hits[0]?.text).toBe('the manual part 11990 alpha beta');
  });
});
