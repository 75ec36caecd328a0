import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  DefaultRetention,
  type Job,
  RetentionLimits,
  type RetentionSettings,
  type RetentionView,
} from '@assistente/contracts';
import { and, count, eq, inArray, sql, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiUsage,
  attachments,
  auditEntries,
  chatShares,
  chats,
  jobLeases,
  messages,
  retentionSettings,
  usageDaily,
  usageEvents,
  users,
} from '../../db/schema/index.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { resolveCaller } from '../../plugins/auth.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import { appendUserMessage, postFile, TINY_PNG } from '../../test/chats.ts';
import {
  makeChat,
  makeDepartment,
  makeDomain,
  makeUser,
  type TestDomain,
  type TestUser,
} from '../../test/factories.ts';
import { S3_TEST_CREDENTIALS, type S3Standin, startS3Standin } from '../../test/s3-standin.ts';
import { RETENTION_JOB } from './retention.ts';

/**
 * Retention (docs/ARCHITECTURE.md#retention): each domain's rule, set by its Admins; the daily run
 * deleting what is past it through the modules' own paths, in bounded batches; legal hold; the
 * scheduler's jobs API that runs it now.
 */

const DAY = 24 * 60 * 60_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

let t: TestApp;
let acme: TestDomain;
let other: TestDomain;
let sales: Awaited<ReturnType<typeof makeDepartment>>;
let viewer: TestUser;
let editor: TestUser;
let admin: TestUser;
let seller: TestUser;
let held: TestUser;
let otherAdmin: TestUser;
let otherViewer: TestUser;
let root: TestUser;

const rule = (over: Partial<RetentionSettings> = {}): RetentionSettings => ({
  chatsDays: null,
  filesDays: null,
  visitorChatsDays: null,
  apiLogsDays: null,
  exemptPinned: false,
  departments: {},
  ...over,
});

/** The UserCaller the auth plugin makes for a test user's token. */
const callerOf = (u: TestUser): Promise<UserCaller> => resolveCaller(t.ctx, u.idToken);

const chatExists = async (id: string) =>
  (await t.ctx.db.select({ id: chats.id }).from(chats).where(eq(chats.id, id))).length === 1;
const messageCount = async (chatId: string) =>
  (await t.ctx.db.select({ n: count() }).from(messages).where(eq(messages.chatId, chatId)))[0]?.n ?? 0;
const localFile = (key: string) => path.join(t.dataDir, 'storage', 'chats', ...key.split('/'));

/** An uploaded file of `owner`'s chat, as if uploaded `days` ago; answers its row. */
async function oldFile(owner: TestUser, chatId: string, days: number) {
  const res = await postFile(t.app, `/api/v1/chats/${chatId}/attachments`, owner, {
    name: 'photo.png',
    type: 'image/png',
    data: TINY_PNG,
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json() as { attachmentId: string }).attachmentId;
  const [row] = await t.ctx.db
    .update(attachments)
    .set({ createdAt: daysAgo(days) })
    .where(eq(attachments.id, id))
    .returning();
  return row!;
}

/** The usage ledger as a whole: rows and sums, which retention never changes. */
async function ledger() {
  const [events] = await t.ctx.db
    .select({ n: count(), tokens: sum(usageEvents.inputTokens) })
    .from(usageEvents);
  const [daily] = await t.ctx.db
    .select({ n: count(), calls: sum(usageDaily.calls), tokens: sum(usageDaily.inputTokens) })
    .from(usageDaily);
  return { events, daily };
}

beforeAll(async () => {
  t = await buildTestApp();
  acme = await makeDomain(t.ctx);
  other = await makeDomain(t.ctx);
  sales = await makeDepartment(t.ctx, acme.domain.id, 'Vendas');
  viewer = await makeUser(t.ctx, { domain: acme });
  editor = await makeUser(t.ctx, { domain: acme, role: 'Editor' });
  admin = await makeUser(t.ctx, { domain: acme, role: 'Admin' });
  seller = await makeUser(t.ctx, { domain: acme, department: sales });
  held = await makeUser(t.ctx, { domain: acme });
  otherAdmin = await makeUser(t.ctx, { domain: other, role: 'Admin' });
  otherViewer = await makeUser(t.ctx, { domain: other });
  root = await makeUser(t.ctx, { role: 'SuperAdmin' });
});
afterAll(async () => {
  await t?.close();
});

describe('the retention rule of a domain', () => {
  const url = '/api/v1/settings/retention';

  it('is everything kept until an Admin sets one; only Admins of the domain (or a SuperAdmin) read and set it', async () => {
    const empty = await t.call('GET', url, admin);
    expect(empty.statusCode, empty.body).toBe(200);
    expect((empty.json() as RetentionView).settings).toEqual(rule());
    for (const who of [viewer, editor]) {
      expect((await t.call('GET', url, who)).statusCode).toBe(403);
      expect((await t.call('PUT', url, who, rule({ chatsDays: 30 }))).statusCode).toBe(403);
    }
    // Another domain's Admin cannot name this one.
    const foreign = await t.call(
      'PUT',
      `${url}?domain=${acme.domain.id}`,
      otherAdmin,
      rule({ chatsDays: 1 }),
    );
    expect(foreign.statusCode).toBe(403);
    expect((await t.call('GET', `${url}?domain=${acme.domain.id}`, otherAdmin)).statusCode).toBe(403);
    expect(await t.ctx.db.select().from(retentionSettings)).toEqual([]);

    const set = rule({
      chatsDays: 90,
      filesDays: 30,
      visitorChatsDays: 7,
      apiLogsDays: 60,
      exemptPinned: true,
      departments: { [sales.id]: { chatsDays: 20 } },
    });
    const put = await t.call('PUT', url, admin, set);
    expect(put.statusCode, put.body).toBe(200);
    const view = put.json() as RetentionView;
    expect(view.settings).toEqual(set);
    expect(view).toHaveProperty('lastRun');
    expect(view).toHaveProperty('nextRunAt');
    const read = await t.call('GET', `${url}?domain=${acme.domain.id}`, root);
    expect((read.json() as RetentionView).settings).toEqual(set);

    const [entry] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.action, 'retention.settings.update'));
    expect(entry).toMatchObject({ actorId: admin.user.id, targetType: 'domain', targetId: acme.domain.id });
    expect(entry?.after).toMatchObject({ chatsDays: 90, filesDays: 30 });
    // The same rule again changes nothing and records nothing.
    await t.call('PUT', url, admin, set);
    const entries = await t.ctx.db
      .select({ n: count() })
      .from(auditEntries)
      .where(eq(auditEntries.action, 'retention.settings.update'));
    expect(entries[0]?.n).toBe(1);
  });

  it('refuses a department of another domain, a department less strict than the domain, and out-of-range days, changing nothing', async () => {
    const before = (await t.call('GET', url, admin)).json() as RetentionView;
    const bad: unknown[] = [
      rule({ chatsDays: 90, departments: { [other.department.id]: { chatsDays: 10 } } }),
      rule({ chatsDays: 90, departments: { nope: { chatsDays: 10 } } }),
      rule({ chatsDays: 30, departments: { [sales.id]: { chatsDays: 31 } } }),
      rule({ chatsDays: 0 }),
      rule({ filesDays: RetentionLimits.maxDays + 1 }),
      { ...rule(), extra: true },
      { chatsDays: 30 },
    ];
    for (const body of bad) {
      const res = await t.call('PUT', url, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    }
    expect((await t.call('GET', url, admin)).json()).toEqual(before);
  });

  it('tells each person the rule for their own chats: their department’s when stricter', async () => {
    const mine = await t.call('GET', '/api/v1/me/retention', viewer);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual({ chatsDays: 90, filesDays: 30, exemptPinned: true });
    expect((await t.call('GET', '/api/v1/me/retention', seller)).json()).toEqual({
      chatsDays: 20,
      filesDays: 30,
      exemptPinned: true,
    });
    expect((await t.call('GET', '/api/v1/me/retention', otherViewer)).json()).toEqual({
      chatsDays: null,
      filesDays: null,
      exemptPinned: false,
    });
    expect((await t.call('GET', '/api/v1/me/retention')).statusCode).toBe(401);
  });
});

describe('legal hold', () => {
  const url = (u: TestUser) => `/api/v1/user/${encodeURIComponent(u.user.id)}/legal_hold`;

  it('is set by an Admin of the person’s domain or a SuperAdmin, audited, and shown to them only', async () => {
    for (const who of [viewer, editor]) {
      expect((await t.call('PUT', url(held), who, { hold: true })).statusCode).toBe(403);
    }
    expect((await t.call('PUT', url(held), otherAdmin, { hold: true })).statusCode).toBe(404);
    for (const body of [{}, { hold: 'yes' }, { hold: true, why: 'x' }]) {
      expect((await t.call('PUT', url(held), admin, body)).statusCode).toBe(400);
    }
    expect((await t.ctx.db.select().from(users).where(eq(users.id, held.user.id)))[0]?.legalHold).toBe(false);

    const res = await t.call('PUT', url(held), admin, { hold: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ userId: held.user.id, hold: true });
    const byRoot = await t.call('PUT', url(viewer), root, { hold: true });
    expect(byRoot.json()).toEqual({ userId: viewer.user.id, hold: true });
    expect((await t.call('PUT', url(viewer), root, { hold: false })).json()).toEqual({
      userId: viewer.user.id,
      hold: false,
    });

    const audit = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.action, 'legal_hold.update'));
    expect(audit).toHaveLength(3);
    expect(audit.find((a) => a.targetId === held.user.id)).toMatchObject({
      actorId: admin.user.id,
      domainId: acme.domain.id,
      before: { legalHold: false },
      after: { legalHold: true },
    });

    const list = await t.call('GET', '/api/v1/user?limit=100', admin);
    const rows = (list.json() as { items?: Array<{ _id: string; legalHold?: boolean }> }).items ?? [];
    const listed = Array.isArray(list.json()) ? (list.json() as typeof rows) : rows;
    expect(listed.find((u) => u._id === held.user.id)?.legalHold).toBe(true);
    expect(listed.find((u) => u._id === viewer.user.id)?.legalHold).toBeUndefined();
    // The person is not told.
    const self = await t.call('GET', url(held).replace('/legal_hold', ''), held);
    expect(self.statusCode).toBe(200);
    expect(self.json()).not.toHaveProperty('legalHold');
  });
});

describe('the daily run', () => {
  const ids: Record<string, string> = {};
  let keys: Record<string, string> = {};
  let ledgerBefore: Awaited<ReturnType<typeof ledger>>;
  let visitorId: string;
  let steps: number[] = [];

  beforeAll(async () => {
    // Old chats: the viewer's (gone), pinned (kept), recent (kept); the seller's at 25 days (gone:
    // department 20); the held person's (kept); the other domain's (kept, no rule there).
    const old = await makeChat(t.ctx, viewer, {
      title: 'old',
      messages: ['q', 'a'],
      updatedAt: daysAgo(100),
    });
    ids.old = old.chat.id;
    ids.pinned = (
      await makeChat(t.ctx, viewer, { title: 'p', pinned: true, messages: ['q'], updatedAt: daysAgo(200) })
    ).chat.id;
    ids.recent = (
      await makeChat(t.ctx, viewer, { title: 'r', messages: ['q'], updatedAt: daysAgo(80) })
    ).chat.id;
    ids.revived = (
      await makeChat(t.ctx, viewer, { title: 'v', messages: ['q'], updatedAt: daysAgo(100) })
    ).chat.id;
    ids.seller = (
      await makeChat(t.ctx, seller, { title: 's', messages: ['q'], updatedAt: daysAgo(25) })
    ).chat.id;
    ids.sellerRecent = (
      await makeChat(t.ctx, seller, { title: 's2', messages: ['q'], updatedAt: daysAgo(15) })
    ).chat.id;
    ids.held = (
      await makeChat(t.ctx, held, { title: 'h', messages: ['q'], updatedAt: daysAgo(300) })
    ).chat.id;
    ids.foreign = (
      await makeChat(t.ctx, otherViewer, { title: 'f', messages: ['q'], updatedAt: daysAgo(999) })
    ).chat.id;
    // A long chat: its messages go in several statements of at most RetentionLimits.batchRows.
    const big = await makeChat(t.ctx, viewer, { title: 'big', updatedAt: daysAgo(120) });
    ids.big = big.chat.id;
    await t.ctx.db.execute(sql`
      insert into ${messages} (id, chat_id, role, content, created_at, updated_at)
      select gen_random_uuid()::text, ${ids.big}, 'user', 'm' || g, now() - interval '120 days', now() - interval '120 days'
        from generate_series(1, 2500) g`);

    // Files: the old chat's (goes with it), one old file of a kept chat (removed, row stays), one
    // recent (kept), one of the held person (kept), one of the pinned chat (kept: pinned are exempt).
    const oldChatFile = await oldFile(viewer, ids.old, 100);
    const oldFileOfRecent = await oldFile(viewer, ids.recent, 40);
    const newFile = await oldFile(viewer, ids.recent, 5);
    const heldFile = await oldFile(held, ids.held, 300);
    const pinnedFile = await oldFile(viewer, ids.pinned, 300);
    keys = {
      oldChat: oldChatFile.storageKey,
      oldOfRecent: oldFileOfRecent.storageKey,
      recent: newFile.storageKey,
      held: heldFile.storageKey,
      pinned: pinnedFile.storageKey,
    };
    ids.oldFileOfRecent = oldFileOfRecent.id;
    ids.oldChatFile = oldChatFile.id;
    ids.newFile = newFile.id;
    // Uploading bumped nothing: the chats' last activity is what the test set.
    await t.ctx.db
      .update(chats)
      .set({ updatedAt: daysAgo(80) })
      .where(eq(chats.id, ids.recent));
    await t.ctx.db
      .update(chats)
      .set({ updatedAt: daysAgo(100) })
      .where(eq(chats.id, ids.old));
    await t.ctx.db
      .update(chats)
      .set({ updatedAt: daysAgo(300) })
      .where(eq(chats.id, ids.held));
    await t.ctx.db
      .update(chats)
      .set({ updatedAt: daysAgo(200) })
      .where(eq(chats.id, ids.pinned));

    // A share link of the old chat goes with it.
    await t.ctx.db.insert(chatShares).values({
      id: randomUUID(),
      chatId: ids.old,
      userId: viewer.user.id,
      domainId: acme.domain.id,
      departmentId: acme.department.id,
      audience: 'domain',
      title: 'old',
      messages: [],
    });

    // An embed visitor's chats: 10 days old (gone: 7), 3 days (kept).
    visitorId = `visitor-${randomUUID()}`;
    await t.ctx.db.insert(users).values({
      id: visitorId,
      email: visitorId,
      displayName: 'Visitante',
      domainId: acme.domain.id,
      departmentId: acme.department.id,
      role: 'Viewer',
      type: 'visitor',
      creator: { name: 'embed', email: 'embed' },
      eula: {
        accept: true,
        timestamp: '',
        version: '',
        pendingRevision: false,
        pendingTimestamp: '',
        isPrivacyPolicy: false,
      },
    } as typeof users.$inferInsert);
    const visitorUser = { user: { id: visitorId, domainId: acme.domain.id } } as TestUser;
    ids.visitorOld = (
      await makeChat(t.ctx, visitorUser, { title: 'vo', messages: ['q'], updatedAt: daysAgo(10) })
    ).chat.id;
    ids.visitorNew = (
      await makeChat(t.ctx, visitorUser, { title: 'vn', messages: ['q'], updatedAt: daysAgo(3) })
    ).chat.id;

    // The API's request log: 2,100 old rows (several statements), 5 recent, 3 old of the held person.
    const logRows = (user: string, domain: string, n: number, days: number) =>
      t.ctx.db.execute(sql`
        insert into ${apiUsage} (id, key_id, user_id, domain_id, requested_model, model, stream, status, created_at)
        select gen_random_uuid()::text, 'k', ${user}, ${domain}, 'm', 'p:m', false, 'complete', now() - ${days} * interval '1 day'
          from generate_series(1, ${n})`);
    await logRows(viewer.user.id, acme.domain.id, 2_100, 61);
    await logRows(viewer.user.id, acme.domain.id, 5, 30);
    await logRows(held.user.id, acme.domain.id, 3, 100);
    await logRows(otherViewer.user.id, other.domain.id, 4, 900);

    // The usage ledger, old as anything: never touched.
    await t.ctx.db.insert(usageEvents).values(
      [viewer, held].map((u, i) => ({
        id: randomUUID(),
        at: daysAgo(400),
        domainId: acme.domain.id,
        userId: u.user.id,
        source: 'chat' as const,
        model: 'p:m',
        inputTokens: 100 + i,
      })),
    );
    await t.ctx.db.insert(usageDaily).values({
      day: '2020-01-01',
      domainId: acme.domain.id,
      userId: viewer.user.id,
      source: 'chat',
      model: 'p:m',
      calls: 7,
      inputTokens: 700,
    });
    ledgerBefore = await ledger();
  });

  it('a chat that gets a new message is active again, however old it was', async () => {
    await appendUserMessage(t.ctx, await callerOf(viewer), ids.revived!, { content: 'back again' });
    const [row] = await t.ctx.db
      .select({ at: chats.updatedAt })
      .from(chats)
      .where(eq(chats.id, ids.revived!));
    expect(Date.now() - row!.at.getTime()).toBeLessThan(60_000);
  });

  it('deletes what is past the rule, in batches of at most 1,000 rows, and keeps the rest', async () => {
    expect(existsSync(localFile(keys.oldChat!))).toBe(true);
    // Texts the agents read out of files: those of files that go are forgotten with them.
    const extracted = (t.ctx.services.agents!.registry as unknown as { extracted: Map<string, unknown> })
      .extracted;
    for (const id of [ids.oldChatFile!, ids.oldFileOfRecent!, ids.newFile!])
      extracted.set(id, { text: 'read' });
    const remaining: number[] = [];
    const counts = await t.ctx.services.retention.run({
      pause: async () => {
        remaining.push(await messageCount(ids.big!));
      },
    });
    steps = remaining;
    // The long chat's messages went in several statements, none over the limit.
    const drops = remaining.map((n, i) => (i === 0 ? 2_500 - n : remaining[i - 1]! - n)).filter((d) => d > 0);
    expect(drops.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...drops)).toBeLessThanOrEqual(RetentionLimits.batchRows);

    expect(counts).toEqual({
      domains: 1,
      chats: 3,
      visitorChats: 1,
      messages: 2_500 + 2 + 1 + 1,
      files: 2,
      apiLogs: 2_100,
    });
    for (const gone of ['old', 'seller', 'big', 'visitorOld'])
      expect(await chatExists(ids[gone]!), gone).toBe(false);
    for (const kept of ['pinned', 'recent', 'revived', 'sellerRecent', 'held', 'foreign', 'visitorNew']) {
      expect(await chatExists(ids[kept]!), kept).toBe(true);
    }
    expect(await messageCount(ids.old!)).toBe(0);
    const registry = t.ctx.services.agents!.registry;
    expect(registry.remembersFile(ids.oldChatFile!)).toBe(false);
    expect(registry.remembersFile(ids.oldFileOfRecent!)).toBe(false);
    expect(registry.remembersFile(ids.newFile!)).toBe(true);
    expect(
      (await t.ctx.db.select({ n: count() }).from(chatShares).where(eq(chatShares.chatId, ids.old!)))[0]?.n,
    ).toBe(0);
  });

  it('removes old files from disk and marks them; their messages say so and they no longer download', async () => {
    expect(existsSync(localFile(keys.oldChat!))).toBe(false);
    expect(existsSync(localFile(keys.oldOfRecent!))).toBe(false);
    for (const kept of ['recent', 'held', 'pinned'])
      expect(existsSync(localFile(keys[kept]!)), kept).toBe(true);
    const rows = await t.ctx.db
      .select({ id: attachments.id, removedAt: attachments.removedAt })
      .from(attachments)
      .where(inArray(attachments.id, [ids.oldFileOfRecent!, ids.newFile!]));
    expect(rows.find((r) => r.id === ids.oldFileOfRecent)?.removedAt).toBeInstanceOf(Date);
    expect(rows.find((r) => r.id === ids.newFile)?.removedAt).toBeNull();
    const file = await t.call(
      'GET',
      `/api/v1/chats/${ids.recent}/attachments/${ids.oldFileOfRecent}`,
      viewer,
    );
    expect(file.statusCode).toBe(404);
    const kept = await t.call('GET', `/api/v1/chats/${ids.recent}/attachments/${ids.newFile}`, viewer);
    expect(kept.statusCode).toBe(200);
  });

  it('deletes old API log rows but not the held person’s nor another domain’s; the usage ledger is untouched', async () => {
    const logs = await t.ctx.db
      .select({ user: apiUsage.userId, n: count() })
      .from(apiUsage)
      .groupBy(apiUsage.userId);
    const by = Object.fromEntries(logs.map((l) => [l.user, l.n]));
    expect(by).toEqual({ [viewer.user.id]: 5, [held.user.id]: 3, [otherViewer.user.id]: 4 });
    expect(await ledger()).toEqual(ledgerBefore);
  });

  it('writes one audit row per domain with its counts, by the system', async () => {
    const rows = await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.action, 'retention.run'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: 'system',
      domainId: acme.domain.id,
      targetType: 'domain',
      targetId: acme.domain.id,
      after: { chats: 3, visitorChats: 1, files: 2, apiLogs: 2_100 },
    });
    expect(steps.length).toBeGreaterThan(0);
  });

  it('a second run finds nothing more to delete; lifting the hold lets the person’s data go', async () => {
    const again = await t.ctx.services.retention.run({ pause: async () => {} });
    expect(again).toMatchObject({ chats: 0, visitorChats: 0, messages: 0, files: 0, apiLogs: 0 });
    await t.call('PUT', `/api/v1/user/${encodeURIComponent(held.user.id)}/legal_hold`, admin, {
      hold: false,
    });
    const after = await t.ctx.services.retention.run({ pause: async () => {} });
    expect(after).toMatchObject({ chats: 1, files: 1, apiLogs: 3 });
    expect(await chatExists(ids.held!)).toBe(false);
    expect(existsSync(localFile(keys.held!))).toBe(false);
  });
});

describe('the jobs API', () => {
  it('shows each domain’s Admins the last run’s counts of their own domain only', async () => {
    const url = '/api/v1/settings/retention';
    const rule = { ...DefaultRetention, chatsDays: 30 };
    expect((await t.call('PUT', url, otherAdmin, rule)).statusCode).toBe(200);
    await makeChat(t.ctx, otherViewer, { title: 'o1', messages: ['q'], updatedAt: daysAgo(60) });
    await makeChat(t.ctx, otherViewer, { title: 'o2', messages: ['q'], updatedAt: daysAgo(60) });
    await makeChat(t.ctx, viewer, { title: 'a1', messages: ['q'], updatedAt: daysAgo(400) });
    const started = await t.call('POST', `/api/v1/jobs/${RETENTION_JOB}/run`, root);
    expect(started.statusCode, started.body).toBe(202);
    const runId = (started.json() as { id: string }).id;
    let sums: Record<string, number> | undefined;
    for (let i = 0; i < 200 && !sums; i++) {
      const jobs = (await t.call('GET', '/api/v1/jobs', root)).json() as Job[];
      const last = jobs.find((j) => j.name === RETENTION_JOB)?.lastRun;
      if (last?.id === runId && last.status !== 'running') sums = last.counts;
      else await new Promise((r) => setTimeout(r, 50));
    }
    // The run's own record sums both domains: the SuperAdmins' jobs list.
    expect(sums).toMatchObject({ domains: 2, chats: 4 });
    const mine = (await t.call('GET', url, admin)).json() as RetentionView;
    const theirs = (await t.call('GET', url, otherAdmin)).json() as RetentionView;
    expect(mine.lastRun?.id).toBe(runId);
    expect(theirs.lastRun?.id).toBe(runId);
    expect(mine.lastRun?.counts).toMatchObject({ chats: 1 });
    // Theirs: the two made here and the very old one the daily run's tests left (no rule then).
    expect(theirs.lastRun?.counts).toMatchObject({ chats: 3 });
    expect(mine.lastRun?.counts).not.toHaveProperty('domains');
    expect(theirs.lastRun).toMatchObject({ by: null, error: null });
    // Put back: the other domain keeps everything again.
    expect((await t.call('PUT', url, otherAdmin, DefaultRetention)).statusCode).toBe(200);
  });

  it('lists every job to a SuperAdmin only', async () => {
    for (const who of [viewer, editor, admin, otherAdmin]) {
      expect((await t.call('GET', '/api/v1/jobs', who)).statusCode).toBe(403);
      expect((await t.call('POST', `/api/v1/jobs/${RETENTION_JOB}/run`, who)).statusCode).toBe(403);
    }
    const res = await t.call('GET', '/api/v1/jobs', root);
    expect(res.statusCode, res.body).toBe(200);
    const names = (res.json() as Array<{ name: string }>).map((j) => j.name);
    expect(names).toEqual(expect.arrayContaining([RETENTION_JOB, 'chats.purge-deleted', 'identity.purge']));
  });

  it('runs a job now (202, audited), refuses while one runs (409) and an unknown job (404)', async () => {
    const res = await t.call('POST', `/api/v1/jobs/${RETENTION_JOB}/run`, root);
    expect(res.statusCode, res.body).toBe(202);
    const run = res.json() as { id: string; trigger: string; by: string; status: string };
    expect(run).toMatchObject({ trigger: 'manual', by: root.user.id, status: 'running' });
    let last: { id?: string; status?: string } | null | undefined;
    for (let i = 0; i < 100; i++) {
      const jobs = (await t.call('GET', '/api/v1/jobs', root)).json() as Array<{
        name: string;
        lastRun: typeof last;
      }>;
      last = jobs.find((j) => j.name === RETENTION_JOB)?.lastRun;
      if (last?.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(last).toMatchObject({ id: run.id, status: 'ok' });
    const view = (await t.call('GET', '/api/v1/settings/retention', admin)).json() as RetentionView;
    expect(view.lastRun?.id).toBe(run.id);
    // Each domain's Admins read their own domain's counts, not the run's sums over every domain,
    // nor who ran it.
    expect(view.lastRun).toMatchObject({ by: null, error: null });
    expect(view.lastRun?.counts).not.toHaveProperty('domains');
    const [audit] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'job.run'), eq(auditEntries.targetId, RETENTION_JOB)));
    expect(audit).toMatchObject({ actorId: root.user.id, targetType: 'job', domainId: null });

    const jobRuns = async () =>
      (await t.ctx.db.select({ n: count() }).from(auditEntries).where(eq(auditEntries.action, 'job.run')))[0]
        ?.n;
    const audited = await jobRuns();

    // A run in progress elsewhere in the cluster holds the job's run lock.
    await t.ctx.db
      .insert(jobLeases)
      .values({ name: `${RETENTION_JOB}#run`, holder: 'elsewhere', until: new Date(Date.now() + 60_000) })
      .onConflictDoUpdate({
        target: jobLeases.name,
        set: { holder: 'elsewhere', until: new Date(Date.now() + 60_000) },
      });
    const busy = await t.call('POST', `/api/v1/jobs/${RETENTION_JOB}/run`, root);
    expect(busy.statusCode).toBe(409);
    expect(errorOf(busy).code).toBe('CONFLICT');
    await t.ctx.db.update(jobLeases).set({ until: new Date() }).where(eq(jobLeases.holder, 'elsewhere'));
    const unknown = await t.call('POST', '/api/v1/jobs/no.such-job/run', root);
    expect(unknown.statusCode).toBe(404);
    // Refused runs are not recorded as run.
    expect(await jobRuns()).toBe(audited);
  });
});

describe('files in S3', () => {
  let s3: S3Standin;
  let s: TestApp;

  beforeAll(async () => {
    s3 = await startS3Standin();
    process.env.AWS_ACCESS_KEY_ID = S3_TEST_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3_TEST_CREDENTIALS.secretAccessKey;
    s = await buildTestApp({ STORAGE_URL: `s3://assistente/files?endpoint=${s3.endpoint}&region=us-east-1` });
  });
  afterAll(async () => {
    await s?.close();
    await s3?.close();
  });

  it('deletes an old chat’s files and old files from the store', async () => {
    const domain = await makeDomain(s.ctx);
    const owner = await makeUser(s.ctx, { domain });
    const boss = await makeUser(s.ctx, { domain, role: 'Admin' });
    const oldChat = await makeChat(s.ctx, owner, { title: 'o', messages: ['q'] });
    const keptChat = await makeChat(s.ctx, owner, { title: 'k', messages: ['q'] });
    const upload = async (chatId: string) => {
      const res = await postFile(s.app, `/api/v1/chats/${chatId}/attachments`, owner, {
        name: 'p.png',
        type: 'image/png',
        data: TINY_PNG,
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { attachmentId: string }).attachmentId;
    };
    await upload(oldChat.chat.id);
    const oldOne = await upload(keptChat.chat.id);
    await upload(keptChat.chat.id);
    expect(s3.size()).toBe(3);
    await s.ctx.db
      .update(chats)
      .set({ updatedAt: daysAgo(50) })
      .where(eq(chats.id, oldChat.chat.id));
    await s.ctx.db
      .update(attachments)
      .set({ createdAt: daysAgo(50) })
      .where(eq(attachments.id, oldOne));
    const put = await s.call(
      'PUT',
      '/api/v1/settings/retention',
      boss,
      rule({ chatsDays: 30, filesDays: 30 }),
    );
    expect(put.statusCode, put.body).toBe(200);
    const counts = await s.ctx.services.retention.run({ pause: async () => {} });
    expect(counts).toMatchObject({ chats: 1, files: 2 });
    expect(s3.size()).toBe(1);
    const [row] = await s.ctx.db.select().from(attachments).where(eq(attachments.id, oldOne));
    expect(row?.removedAt).toBeInstanceOf(Date);
    const messagesPage = await s.call('GET', `/api/v1/chats/${keptChat.chat.id}/messages`, owner);
    expect(messagesPage.statusCode).toBe(200);
  });
});
