import type { AddressInfo } from 'node:net';
import {
  ApiKeyCreatedSchema,
  ErrorBodySchema,
  type KnowledgeEvent,
  KnowledgeSourceSchema,
  KnowledgeStreamEventSchema,
  VirtualAccountWithSecretSchema,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Built } from '../../app.ts';
import { users } from '../../db/schema/index.ts';
import { buildTestApp, startReplica, type TestApp } from '../../test/app.ts';
import { postFile } from '../../test/chats.ts';
import { type ConfluenceStandin, startConfluenceStandin } from '../../test/confluence-standin.ts';
import { visitorToken } from '../../test/embedded.ts';
import { EventStreamReader, type ReadEvent } from '../../test/event-stream.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import { describeWithRedis } from '../../test/redis.ts';

const BASE = '/api/v1/integration/knowledge';
const SITE = 'https://shop.example.com';

let fx: LlmFixture;
let cf: ConfluenceStandin;
let t: TestApp;
let base: string;
let a: TestDomain;
let b: TestDomain;
let admin: TestUser;
let otherAdmin: TestUser;
const open: EventStreamReader[] = [];

/** An Admin's stream of knowledge events on `at`, read once it is `ready`. */
async function watch(who: TestUser, at = base, query = ''): Promise<EventStreamReader> {
  const reader = await EventStreamReader.open(`${at}${BASE}/events${query}`, who.headers);
  open.push(reader);
  await reader.next((e) => e.event === 'ready');
  return reader;
}

/**
 * The events of the stream (those at indexes `from` to `to`, exclusive), checked against the
 * contract (the SSE `event:` is the type), `ready` left out.
 */
function eventsOf(reader: EventStreamReader, from = 0, to = reader.events.length): KnowledgeEvent[] {
  return reader.events
    .slice(from, to)
    .map((e) => {
      const parsed = KnowledgeStreamEventSchema.parse(e.data);
      expect(parsed.type).toBe(e.event);
      return parsed;
    })
    .filter((e): e is KnowledgeEvent => e.type !== 'ready');
}

const isEvent =
  (want: Partial<Record<string, unknown>>) =>
  (e: ReadEvent): boolean =>
    Object.entries(want).every(([k, v]) => (e.data as Record<string, unknown>)[k] === v);

async function inject(method: 'GET' | 'POST', url: string, who: TestUser, payload?: object) {
  return t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
}

async function makeFilesSource(who: TestUser, displayName: string): Promise<string> {
  const res = await inject('POST', BASE, who, { kind: 'files', displayName });
  expect(res.statusCode, res.body).toBe(201);
  return KnowledgeSourceSchema.parse(res.json()).sourceId;
}

beforeAll(async () => {
  fx = await startLlmFixture({ models: ['fixture-small', 'fixture-embed'] });
  cf = await startConfluenceStandin();
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: `127.0.0.1:${fx.port},127.0.0.1:${cf.port}` });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  a = await makeDomain(t.ctx, { premium: true });
  b = await makeDomain(t.ctx, { premium: true });
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  otherAdmin = await makeUser(t.ctx, { domain: b, role: 'Admin' });
  const res = await inject('POST', '/api/v1/settings/providers', admin, {
    kind: 'openai-compatible',
    label: 'Fixture',
    baseUrl: fx.baseUrl,
  });
  expect(res.statusCode, res.body).toBe(201);
  cf.addSpace('ENG', 'Engineering');
  for (let i = 1; i <= 5; i++) {
    cf.putPage('ENG', {
      id: String(i),
      title: `Page ${i}`,
      body: `<p>Runbook step ${i}: restart the queue.</p>`,
    });
  }
  // Two pages per API page: the sync reports progress batch by batch.
  cf.setMaxPageSize(2);
}, 120_000);

afterEach(() => {
  for (const reader of open.splice(0)) reader.close();
});

afterAll(async () => {
  await t?.close();
  await cf?.close();
  await fx?.close();
}, 60_000);

describe('knowledge events (GET …/knowledge/events)', () => {
  it('an Admin watches an upload go from pending through indexing to ready', async () => {
    const sourceId = await makeFilesSource(admin, 'Handbook');
    const stream = await watch(admin);
    const res = await postFile(t.app, `${BASE}/${sourceId}/documents`, admin, {
      name: 'oncall.md',
      type: 'text/markdown',
      data: '# On call\n\nPage the second line after ten minutes.',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { documentId } = res.json() as { documentId: string };
    const ready = await stream.next(isEvent({ type: 'document', documentId, status: 'ready' }));
    const mine = eventsOf(stream).filter((e) => e.type === 'document' && e.documentId === documentId);
    expect(mine.map((e) => e.type === 'document' && e.status)).toEqual(['pending', 'indexing', 'ready']);
    expect(ready.event.data).toEqual({
      type: 'document',
      sourceId,
      documentId,
      status: 'ready',
      chunks: expect.any(Number),
    });
    expect((ready.event.data as { chunks: number }).chunks).toBeGreaterThan(0);

    // Removing it is told too.
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `${BASE}/${sourceId}/documents/${documentId}`,
      headers: admin.headers,
    });
    expect(gone.statusCode).toBe(204);
    await stream.next(isEvent({ type: 'document.removed', sourceId, documentId }));
  });

  it('a document that fails is told with its reason, for the screen to say in words', async () => {
    const sourceId = await makeFilesSource(admin, 'Broken');
    const stream = await watch(admin);
    const res = await postFile(t.app, `${BASE}/${sourceId}/documents`, admin, {
      name: 'broken.pdf',
      type: 'application/pdf',
      data: Buffer.from('%PDF-1.4\nnot really a pdf'),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { documentId } = res.json() as { documentId: string };
    const failed = await stream.next(isEvent({ type: 'document', documentId, status: 'error' }));
    expect(failed.event.data).toEqual({
      type: 'document',
      sourceId,
      documentId,
      status: 'error',
      error: expect.any(String),
      errorReason: { kind: 'unreadable' },
    });
  });

  it('an Admin watches a Confluence sync: syncing, its progress page by page, then idle', async () => {
    const stream = await watch(admin);
    const made = await inject('POST', BASE, admin, {
      kind: 'confluence',
      displayName: 'Wiki',
      confluence: { baseUrl: `${cf.url}/wiki`, email: cf.email, apiToken: cf.token, spaces: ['ENG'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const sourceId = KnowledgeSourceSchema.parse(made.json()).sourceId;
    // Created idle, then syncing: the idle after that ends the sync.
    const syncing = await stream.next(isEvent({ type: 'source', sourceId, status: 'syncing' }));
    const idle = await stream.next(isEvent({ type: 'source', sourceId, status: 'idle' }), {
      from: syncing.index,
      timeoutMs: 30_000,
    });
    const ofSource = eventsOf(stream, 0, idle.index + 1).filter(
      (e): e is Extract<KnowledgeEvent, { type: 'source' }> => e.type === 'source' && e.sourceId === sourceId,
    );
    // Created idle, claimed at once (no total yet), progress out of every page, idle at the end.
    expect(ofSource[0]).toEqual({ type: 'source', sourceId, status: 'idle' });
    expect(ofSource[1]).toEqual({ type: 'source', sourceId, status: 'syncing' });
    expect(ofSource.at(-1)).toEqual({ type: 'source', sourceId, status: 'idle' });
    const progress = ofSource.slice(2, -1).map((e) => e.progress);
    expect(progress.every((p) => p !== undefined)).toBe(true);
    // The first already counts all five pages, though Confluence lists them two at a time; and
    // before any page is indexed.
    expect(progress[0]).toEqual({ done: 0, total: 5 });
    const firstProgress = stream.events.findIndex(
      (e) => isEvent({ type: 'source', sourceId, status: 'syncing' })(e) && 'progress' in (e.data as object),
    );
    const firstIndexing = stream.events.findIndex(
      isEvent({ type: 'document', sourceId, status: 'indexing' }),
    );
    expect(firstProgress).toBeLessThan(firstIndexing);
    // Then page by page, never past the total, up to every page done.
    expect(progress.every((p) => p?.total === 5 && p.done <= p.total)).toBe(true);
    expect(progress.some((p) => p && p.done > 0 && p.done < 5)).toBe(true);
    expect(progress.at(-1)).toEqual({ done: 5, total: 5 });
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]?.done).toBeGreaterThanOrEqual(progress[i - 1]?.done ?? 0);
    }
    // Every page went indexing → ready before the source went idle.
    const docs = eventsOf(stream, 0, idle.index).filter(
      (e) => e.type === 'document' && e.sourceId === sourceId,
    );
    const ready = new Set(
      docs
        .filter((e) => e.type === 'document' && e.status === 'ready')
        .map((e) => e.type === 'document' && e.documentId),
    );
    expect(ready.size).toBe(5);
    expect(docs.filter((e) => e.type === 'document' && e.status === 'indexing')).toHaveLength(5);

    // A page gone from Confluence leaves on the next sync, and the screen is told.
    cf.deletePage('ENG', '5');
    const from = stream.events.length;
    expect((await inject('POST', `${BASE}/${sourceId}/sync`, admin)).statusCode).toBe(202);
    await stream.next(isEvent({ type: 'document.removed', sourceId }), { from });
    await stream.next(isEvent({ type: 'source', sourceId, status: 'idle' }), { from, timeoutMs: 30_000 });
  });

  it('pages added or deleted while a sync runs: done never passes the total, the next sync catches up', async () => {
    cf.addSpace('OPS', 'Operations');
    for (let i = 101; i <= 106; i++) {
      cf.putPage('OPS', { id: String(i), title: `Ops ${i}`, body: `<p>Ops procedure ${i}.</p>` });
    }
    // As the first bodies are asked for (the listing done): a page appears, a listed one goes.
    let changed = false;
    cf.onRequest((path) => {
      if (changed || !path.startsWith('/wiki/api/v2/pages?')) return;
      changed = true;
      cf.putPage('OPS', { id: '107', title: 'Ops 107', body: '<p>Ops procedure 107.</p>' });
      cf.deletePage('OPS', '106');
    });
    try {
      const stream = await watch(admin);
      const made = await inject('POST', BASE, admin, {
        kind: 'confluence',
        displayName: 'Ops wiki',
        confluence: { baseUrl: `${cf.url}/wiki`, email: cf.email, apiToken: cf.token, spaces: ['OPS'] },
      });
      expect(made.statusCode, made.body).toBe(201);
      const sourceId = KnowledgeSourceSchema.parse(made.json()).sourceId;
      /** The progress told by the sync that starts after event `from`, once it has ended. */
      const progressOf = async (from: number) => {
        const syncing = await stream.next(isEvent({ type: 'source', sourceId, status: 'syncing' }), { from });
        const idle = await stream.next(isEvent({ type: 'source', sourceId, status: 'idle' }), {
          from: syncing.index,
          timeoutMs: 30_000,
        });
        return eventsOf(stream, syncing.index, idle.index)
          .filter((e) => e.type === 'source' && e.sourceId === sourceId && e.progress)
          .map((e) => (e.type === 'source' ? e.progress : undefined));
      };
      const first = await progressOf(0);
      expect(changed).toBe(true);
      expect(first[0]).toEqual({ done: 0, total: 6 });
      expect(first.every((p) => p && p.done <= p.total)).toBe(true);
      expect(first.at(-1)).toEqual({ done: 6, total: 6 });
      const titles = async () =>
        ((await inject('GET', `${BASE}/${sourceId}/documents`, admin)).json() as Array<{ title: string }>)
          .map((d) => d.title)
          .sort();
      expect(await titles()).toEqual(['Ops 101', 'Ops 102', 'Ops 103', 'Ops 104', 'Ops 105']);

      // The next sync indexes the page added meanwhile, and only it.
      const from = stream.events.length;
      expect((await inject('POST', `${BASE}/${sourceId}/sync`, admin)).statusCode).toBe(202);
      const second = await progressOf(from);
      expect(second[0]).toEqual({ done: 5, total: 6 });
      expect(second.at(-1)).toEqual({ done: 6, total: 6 });
      expect(await titles()).toEqual(['Ops 101', 'Ops 102', 'Ops 103', 'Ops 104', 'Ops 105', 'Ops 107']);
    } finally {
      cf.onRequest(null);
    }
  });

  it('an Admin of another domain gets none of it, only their own domain’s', async () => {
    const mine = await watch(admin);
    const theirs = await watch(otherAdmin);
    const sourceId = await makeFilesSource(admin, 'Private');
    await mine.next(isEvent({ type: 'source', sourceId }));
    // Published after A's event, on the same bus: had B's stream been sent A's, it would have it by now.
    const theirSource = await makeFilesSource(otherAdmin, 'Theirs');
    await theirs.next(isEvent({ type: 'source', sourceId: theirSource }));
    expect(eventsOf(theirs)).toEqual([{ type: 'source', sourceId: theirSource, status: 'idle' }]);
    expect(eventsOf(mine).some((e) => e.type === 'source' && e.sourceId === theirSource)).toBe(false);
  });

  it('a SuperAdmin may watch any domain through ?domain=', async () => {
    const superAdmin = await makeUser(t.ctx, {
      domain: await makeDomain(t.ctx, { premium: true }),
      role: 'SuperAdmin',
    });
    const stream = await watch(superAdmin, base, `?domain=${encodeURIComponent(a.domain.id)}`);
    const sourceId = await makeFilesSource(admin, 'Seen by the SuperAdmin');
    await stream.next(isEvent({ type: 'source', sourceId }));
  });

  it('every other caller is refused: other roles, non-premium Admins, another domain, visitors, API keys', async () => {
    const refused = async (headers: Record<string, string>, query = '') => {
      const res = await t.app.inject({ url: `${BASE}/events${query}`, headers });
      expect(ErrorBodySchema.safeParse(res.json()).success, res.body).toBe(true);
      return res.statusCode;
    };
    for (const role of ['Viewer', 'Editor'] as const) {
      expect(await refused((await makeUser(t.ctx, { domain: a, role })).headers)).toBe(403);
    }
    const plain = await makeDomain(t.ctx, { premium: false });
    expect(await refused((await makeUser(t.ctx, { domain: plain, role: 'Admin' })).headers)).toBe(403);
    // An Admin may name only their own domain.
    expect(await refused(otherAdmin.headers, `?domain=${encodeURIComponent(a.domain.id)}`)).toBe(403);
    expect(await refused({})).toBe(401);
    expect(await refused({ authorization: 'Bearer not.a.token' })).toBe(401);

    const key = await inject('POST', '/api/v1/api_keys', admin, { name: 'CI' });
    expect(key.statusCode, key.body).toBe(201);
    const { secret } = ApiKeyCreatedSchema.parse(key.json());
    expect(await refused({ authorization: `Bearer ${secret}` })).toBe(401);

    const va = await inject('POST', '/api/v1/virtual_account', admin, {
      displayName: 'Loja',
      allowedOrigins: [SITE],
    });
    expect(va.statusCode, va.body).toBe(201);
    const { virtualAccountId } = VirtualAccountWithSecretSchema.parse(va.json());
    const idToken = await visitorToken(t.app, virtualAccountId, SITE);
    expect(await refused({ authorization: `Bearer ${idToken}` })).toBe(401);
  });

  it('a stream ends when its session is revoked or its Admin demoted; others stay open', async () => {
    const leaving = await makeUser(t.ctx, { domain: a, role: 'Admin' });
    const demoted = await makeUser(t.ctx, { domain: a, role: 'Admin' });
    const staying = await watch(admin);
    const revokedStream = await watch(leaving);
    const demotedStream = await watch(demoted);
    await t.ctx.identity.revokeSession(leaving.sessionId, 'test');
    await revokedStream.ended;
    await t.ctx.db.update(users).set({ role: 'Editor' }).where(eq(users.id, demoted.user.id));
    await t.ctx.services.callerStates.invalidate({ email: demoted.user.id });
    await demotedStream.ended;
    // The Admin whose account did not change still gets events.
    const sourceId = await makeFilesSource(admin, 'Still watched');
    await staying.next(isEvent({ type: 'source', sourceId }));
    expect(staying.isEnded).toBe(false);
  });

  // Two replicas behind a load balancer, joined by Redis (CI sets REDIS_URL for every test project).
  describeWithRedis('across replicas (Redis)', () => {
    let replica: Built;
    beforeAll(async () => {
      ({ built: replica } = await startReplica(t));
    });
    afterAll(async () => {
      await replica?.app.close();
    });

    it('a stream on one replica follows a sync running on the other', async () => {
      const made = await inject('POST', BASE, admin, {
        kind: 'confluence',
        displayName: 'Wiki elsewhere',
        confluence: { baseUrl: `${cf.url}/wiki`, email: cf.email, apiToken: cf.token, spaces: ['ENG'] },
      });
      const sourceId = KnowledgeSourceSchema.parse(made.json()).sourceId;
      const here = await watch(admin);
      // Wait out the first sync (started on this replica), then sync again on the other one.
      await expect
        .poll(
          async () =>
            KnowledgeSourceSchema.parse((await inject('GET', `${BASE}/${sourceId}`, admin)).json()).status,
          {
            timeout: 30_000,
          },
        )
        .toBe('idle');
      cf.putPage('ENG', { id: '1', title: 'Page 1', body: '<p>Runbook step 1, revised.</p>' });
      const from = here.events.length;
      const res = await replica.app.inject({
        method: 'POST',
        url: `${BASE}/${sourceId}/sync`,
        headers: admin.headers,
      });
      expect(res.statusCode, res.body).toBe(202);
      // The first sync's last events may still be on their way (its status was read from the
      // database): everything of the second sync comes after its own 'syncing'.
      const started = await here.next(isEvent({ type: 'source', sourceId, status: 'syncing' }), { from });
      await here.next(isEvent({ type: 'document', sourceId, status: 'ready' }), { from: started.index });
      const last = await here.next(isEvent({ type: 'source', sourceId, status: 'idle' }), {
        from: started.index,
        timeoutMs: 30_000,
      });
      const progress = eventsOf(here, started.index, last.index)
        .filter((e) => e.type === 'source' && e.sourceId === sourceId && e.progress)
        .map((e) => e.type === 'source' && e.progress);
      expect(progress.at(-1)).toEqual({ done: 4, total: 4 });
    });
  });
});

describe('closing the server', () => {
  it('app.close() with a stream open ends it and returns at once', async () => {
    const u = await buildTestApp();
    try {
      await u.app.listen({ port: 0, host: '127.0.0.1' });
      const d = await makeDomain(u.ctx, { premium: true });
      const who = await makeUser(u.ctx, { domain: d, role: 'Admin' });
      const port = (u.app.server.address() as AddressInfo).port;
      const stream = await watch(who, `http://127.0.0.1:${port}`);
      const started = Date.now();
      await u.app.close();
      expect(Date.now() - started).toBeLessThan(2_000);
      await stream.ended;
    } finally {
      await u.close();
    }
  });
});
