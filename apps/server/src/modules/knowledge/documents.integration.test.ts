import {
  AuditEntrySchema,
  ErrorBodySchema,
  type KnowledgeDocument,
  KnowledgeDocumentSchema,
  type KnowledgeFailure,
  KnowledgeSourceSchema,
} from '@assistente/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, knowledgeChunks, knowledgeDocuments } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { postFile, TINY_PNG } from '../../test/chats.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { flate, makeDocx, makePdf } from '../../test/knowledge/documents.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { MAX_CHUNKS } from './bounds.ts';
import { searchKnowledge } from './indexer.ts';
import { newDocumentId } from './service-ids.ts';
import { knowledgeStore } from './store.ts';
import { mergePendingSearch } from './upkeep.ts';

const BASE = '/api/v1/integration/knowledge';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let fx: LlmFixture;
let t: TestApp;
let a: TestDomain;
let admin: TestUser;
let viewer: TestUser;
let otherAdmin: TestUser;
let filesId: string;

async function documents(sourceId: string, who = admin): Promise<KnowledgeDocument[]> {
  const res = await t.app.inject({ url: `${BASE}/${sourceId}/documents`, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as unknown[]).map((d) => KnowledgeDocumentSchema.parse(d));
}

async function upload(name: string, type: string, data: Buffer | string, sourceId = filesId, who = admin) {
  return postFile(t.app, `${BASE}/${sourceId}/documents`, who, { name, type, data });
}

beforeAll(async () => {
  fx = await startLlmFixture({ models: ['fixture-small', 'fixture-embed'] });
  t = await buildTestApp({
    PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port},127.0.0.1:9`,
    UPLOAD_MAX_BYTES: '200000',
  });
  a = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  viewer = await makeUser(t.ctx, { domain: a });
  otherAdmin = await makeUser(t.ctx, { domain: await makeDomain(t.ctx, { premium: true }), role: 'Admin' });
  await t.app.inject({
    method: 'POST',
    url: '/api/v1/settings/providers',
    headers: admin.headers,
    payload: { kind: 'openai-compatible', label: 'Fixture', baseUrl: fx.baseUrl },
  });
  const res = await t.app.inject({
    method: 'POST',
    url: BASE,
    headers: admin.headers,
    payload: { kind: 'files', displayName: 'Handbook' },
  });
  filesId = KnowledgeSourceSchema.parse(res.json()).sourceId;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fx?.close();
}, 60_000);

describe('uploading documents to a files source', () => {
  it('takes PDF, DOCX, Markdown, HTML and text, and indexes each in the background', async () => {
    const files: Array<[string, string, Buffer | string, string]> = [
      [
        'refunds.pdf',
        'application/pdf',
        makePdf(['Refund policy', 'Refunds are paid within seven days.']),
        'seven days',
      ],
      ['travel.docx', DOCX, makeDocx('Travel', ['Book flights through the travel portal.']), 'travel portal'],
      ['security.md', 'text/markdown', '# Security\n\nRotate passwords every ninety days.', 'ninety days'],
      [
        'wifi.html',
        'text/html',
        '<h1>Wi-Fi</h1><p>The guest network password is on the fridge.</p>',
        'fridge',
      ],
      ['lunch.txt', 'text/plain', 'Lunch is served at noon in the canteen.', 'canteen'],
    ];
    for (const [name, type, data] of files) {
      const res = await upload(name, type, data);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
      const doc = KnowledgeDocumentSchema.strict().parse(res.json());
      expect(doc).toMatchObject({ title: name.replace(/\.\w+$/, ''), contentType: type, sourceId: filesId });
    }
    await t.ctx.services.knowledge.ingest.idle();
    // Once the uploads are indexed, their chunks are merged into the full-text index.
    expect(await mergePendingSearch(t.ctx.db)).toBe(0);
    const listed = await documents(filesId);
    expect(listed.map((d) => [d.title, d.status, d.error])).toEqual(
      files.map(([name]) => [name.replace(/\.\w+$/, ''), 'ready', undefined]),
    );
    expect(listed.every((d) => d.chunks >= 1)).toBe(true);
    for (const [name, , , phrase] of files) {
      const hits = await searchKnowledge(t.ctx, a.domain.id, [filesId], phrase, 1);
      expect(hits[0]?.title, phrase).toBe(name.replace(/\.\w+$/, ''));
    }
    const source = KnowledgeSourceSchema.parse(
      (await t.app.inject({ url: `${BASE}/${filesId}`, headers: admin.headers })).json(),
    );
    expect(source.documents).toBe(5);
    expect(source.chunks).toBeGreaterThanOrEqual(5);
  });

  it('a source counts its documents waiting for or in indexing, and none once they are done', async () => {
    const source = async () =>
      KnowledgeSourceSchema.strict().parse(
        (await t.app.inject({ url: `${BASE}/${filesId}`, headers: admin.headers })).json(),
      );
    const before = await source();
    expect(before.indexing).toBeUndefined();
    // Rows as an upload and the indexer leave them, without a file for the indexer to pick up.
    const store = knowledgeStore(t.ctx.db);
    for (const status of ['pending', 'indexing'] as const)
      await store.insertDocument({
        id: newDocumentId(),
        domainId: a.domain.id,
        sourceId: filesId,
        title: status,
        url: '',
        status,
        contentType: 'text/plain',
        size: 1,
      });
    expect(await source()).toMatchObject({ documents: before.documents + 2, indexing: 2 });
    await t.ctx.db
      .delete(knowledgeDocuments)
      .where(inArray(knowledgeDocuments.title, ['pending', 'indexing']));
    expect((await source()).indexing).toBeUndefined();
  });

  it('serves the stored file as a download', async () => {
    const doc = (await documents(filesId)).find((d) => d.title === 'wifi');
    const res = await t.app.inject({ url: doc!.url, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment; filename="wifi.html"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('fridge');
  });

  it('a document that cannot be read is marked with its error', async () => {
    const res = await upload('broken.pdf', 'application/pdf', Buffer.from('%PDF-1.4\nnot really a pdf'));
    expect(res.statusCode).toBe(201);
    await t.ctx.services.knowledge.ingest.idle();
    const broken = (await documents(filesId)).find((d) => d.title === 'broken');
    expect(broken?.status).toBe('error');
    expect(broken?.error).toBeTruthy();
    expect(broken?.errorReason).toEqual({ kind: 'unreadable' });
  });

  it('an embeddings failure is kept as the provider failure, for the screen to say in words', async () => {
    fx.setScript({ status: 500 });
    try {
      const res = await upload('embed-fails.md', 'text/markdown', '# Fails\n\nThe provider is down.');
      expect(res.statusCode).toBe(201);
      await t.ctx.services.knowledge.ingest.idle();
    } finally {
      fx.reset();
    }
    const doc = (await documents(filesId)).find((d) => d.title === 'embed-fails');
    expect(doc?.status).toBe('error');
    expect(doc?.error).toMatch(/fixture error 500/);
    expect(doc?.errorReason).toEqual({ kind: 'provider', failure: { code: 'provider_failed', status: 500 } });
  });

  it('document bombs are refused unread, marked failed with the reason, and index nothing', async () => {
    const bombs: Array<[string, string, Buffer, RegExp, KnowledgeFailure]> = [
      // A few kilobytes each, unpacking to what would have taken the server's memory.
      [
        'zip-bomb.docx',
        DOCX,
        makeDocx('Bomb', ['x'], { deflate: true, padding: 128 * 1024 * 1024 }),
        /unpacks to more than 32 MB of text markup/,
        { kind: 'docx_too_large', limitMb: 32 },
      ],
      [
        'flate-bomb.pdf',
        'application/pdf',
        makePdf([], { contents: { dict: '/Filter /FlateDecode', data: flate(128 * 1024 * 1024) } }),
        /PDF unpacks to more than 64 MB/,
        { kind: 'pdf_too_large', limitMb: 64 },
      ],
      // Small enough to read, but cut into more passages than a document may have.
      [
        'headings.md',
        'text/markdown',
        Buffer.from('# h\n\nx\n\n'.repeat(MAX_CHUNKS + 1)),
        /at most 2000 are indexed/,
        { kind: 'too_many_passages', count: MAX_CHUNKS + 1, limit: MAX_CHUNKS },
      ],
    ];
    for (const [name, type, data] of bombs) {
      const res = await upload(name, type, data);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
    }
    await t.ctx.services.knowledge.ingest.idle();
    const listed = await documents(filesId);
    for (const [name, , , reason, code] of bombs) {
      const doc = listed.find((d) => d.title === name.replace(/\.\w+$/, ''));
      expect(doc?.status, name).toBe('error');
      expect(doc?.error, name).toMatch(reason);
      expect(doc?.errorReason, name).toEqual(code);
      const chunks = await t.ctx.db
        .select()
        .from(knowledgeChunks)
        .where(eq(knowledgeChunks.documentId, doc!.documentId));
      expect(chunks, name).toEqual([]);
    }
  });

  it('refuses other types, oversize files and bad bodies, storing nothing', async () => {
    const before = (await documents(filesId)).length;
    const png = await upload('x.png', 'image/png', TINY_PNG);
    expect(png.statusCode).toBe(415);
    const fake = await upload('x.pdf', 'application/pdf', 'MZ this is not a pdf');
    expect(fake.statusCode).toBe(415);
    const big = await upload('big.txt', 'text/plain', 'a'.repeat(200_001));
    expect(big.statusCode).toBe(413);
    const json = await t.app.inject({
      method: 'POST',
      url: `${BASE}/${filesId}/documents`,
      headers: admin.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(ErrorBodySchema.parse(json.json()).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await documents(filesId)).length).toBe(before);
  });

  it('a Confluence source takes no uploads', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: BASE,
      headers: admin.headers,
      payload: {
        kind: 'confluence',
        displayName: 'Wiki',
        confluence: { baseUrl: 'http://127.0.0.1:9', email: 'a@b.c', apiToken: 'x', spaces: ['A'] },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const up = await upload('a.txt', 'text/plain', 'hello', KnowledgeSourceSchema.parse(res.json()).sourceId);
    expect(up.statusCode).toBe(400);
  });

  it('only the domain’s Admins upload, list, download or delete', async () => {
    const [doc] = await documents(filesId);
    for (const who of [viewer, otherAdmin]) {
      const expected = who === viewer ? 403 : 404;
      expect((await upload('a.txt', 'text/plain', 'x', filesId, who)).statusCode).toBe(expected);
      for (const [method, url] of [
        ['GET', `${BASE}/${filesId}/documents`],
        ['DELETE', `${BASE}/${filesId}/documents/${doc!.documentId}`],
      ] as const) {
        expect(
          (await t.app.inject({ method, url, headers: who.headers })).statusCode,
          `${method} ${url}`,
        ).toBe(expected);
      }
      // The download also opens for a citing santito's users, so for anyone else it is not there.
      expect((await t.app.inject({ url: doc!.url, headers: who.headers })).statusCode).toBe(404);
    }
  });

  it('deleting a document removes its chunks and its file', async () => {
    const doc = (await documents(filesId)).find((d) => d.title === 'lunch')!;
    const [row] = await t.ctx.db
      .select()
      .from(knowledgeDocuments)
      .where(eq(knowledgeDocuments.id, doc.documentId));
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${BASE}/${filesId}/documents/${doc.documentId}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(204);
    const chunks = await t.ctx.db
      .select()
      .from(knowledgeChunks)
      .where(eq(knowledgeChunks.documentId, doc.documentId));
    expect(chunks).toEqual([]);
    expect(await t.ctx.services.storage.bucket('knowledge').stat(row!.storageKey!)).toBeUndefined();
    expect(await searchKnowledge(t.ctx, a.domain.id, [filesId], 'canteen', 3)).toSatisfy(
      (hits: { title: string }[]) => hits.every((h) => h.title !== 'lunch'),
    );
  });
});

describe('audit', () => {
  it('a document’s upload and deletion are logged under its source’s name, not only its id', async () => {
    const up = await upload('memo.txt', 'text/plain', 'Quarterly memo.');
    expect(up.statusCode, up.body).toBe(201);
    const { documentId } = KnowledgeDocumentSchema.parse(up.json());
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${BASE}/${filesId}/documents/${documentId}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(204);
    const res = await t.app.inject({
      url: `/api/v1/audit?targetType=knowledge&targetId=${filesId}&limit=200`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const mine = AuditEntrySchema.array()
      .parse(res.json())
      .filter((e) => e.after?.documentId === documentId || e.before?.documentId === documentId);
    expect(mine.map((e) => e.action).sort()).toEqual([
      'knowledge.document.delete',
      'knowledge.document.upload',
    ]);
    for (const entry of mine) {
      expect(entry.before?.displayName).toBe('Handbook');
      expect(entry.after?.displayName).toBe('Handbook');
    }
    await t.ctx.services.knowledge.ingest.idle();
  });
});

describe('quota', () => {
  it('uploads count against the domain’s storage quota', async () => {
    const q = await buildTestApp({ STORAGE_QUOTA_BYTES: '100' });
    try {
      const d = await makeDomain(q.ctx, { premium: true });
      const dAdmin = await makeUser(q.ctx, { domain: d, role: 'Admin' });
      const src = await q.app.inject({
        method: 'POST',
        url: BASE,
        headers: dAdmin.headers,
        payload: { kind: 'files', displayName: 'F' },
      });
      const id = KnowledgeSourceSchema.parse(src.json()).sourceId;
      const first = await postFile(q.app, `${BASE}/${id}/documents`, dAdmin, {
        name: 'a.txt',
        type: 'text/plain',
        data: 'a'.repeat(80),
      });
      expect(first.statusCode).toBe(201);
      const second = await postFile(q.app, `${BASE}/${id}/documents`, dAdmin, {
        name: 'b.txt',
        type: 'text/plain',
        data: 'b'.repeat(40),
      });
      expect(second.statusCode).toBe(402);
      // The stored upload is audited; the refused one left no entry.
      const entries = await q.ctx.db
        .select()
        .from(auditEntries)
        .where(eq(auditEntries.action, 'knowledge.document.upload'));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        domainId: d.domain.id,
        actorId: dAdmin.user.id,
        targetId: id,
        after: { title: 'a', contentType: 'text/plain', size: 80 },
      });
      await q.ctx.services.knowledge.ingest.idle();
    } finally {
      await q.close();
    }
  });
});
