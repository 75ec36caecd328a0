import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Prompt, type UsageSummary, UsageSummarySchema } from '@assistente/contracts';
import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeys,
  apiUsage,
  attachments,
  auditEntries,
  chatShares,
  chats,
  dataExports,
  mcpServers,
  mcpTokens,
  memories,
  messages,
  prompts,
  promptVersions,
  usageDaily,
  usageEvents,
  users,
} from '../../db/schema/index.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import { postFile, TINY_PNG } from '../../test/chats.ts';
import { makeChat, makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { S3_TEST_CREDENTIALS, type S3Standin, startS3Standin } from '../../test/s3-standin.ts';
import { pseudonym } from '../usage/reports.ts';

/**
 * Erasing a person (docs/ARCHITECTURE.md#export-and-erasure): DELETE /api/v1/user/{id} removes their
 * chats, messages, links and files (from disk and from S3), memories, private prompts, API keys and
 * their log, MCP connections and exports; their department and domain prompts pass to the Admin;
 * their usage stays under a pseudonym with every report's totals unchanged. Under legal hold the
 * delete is refused and nothing changes.
 */

const MODEL = 'fixture:erasure';

interface Person {
  who: TestUser;
  chatIds: string[];
  storageKeys: string[];
}

/** A person with something of everything, made through the API where there is one. */
async function personWithData(t: TestApp, where: TestDomain): Promise<Person> {
  const who = await makeUser(t.ctx, { domain: where, role: 'Admin' });
  const { chat } = await makeChat(t.ctx, who, { title: 'Minha conversa', messages: ['oi', 'olá'] });
  const trashed = await makeChat(t.ctx, who, { title: 'Na lixeira', messages: ['tchau'] });
  for (const [chatId, name] of [
    [chat.id, 'a.png'],
    [chat.id, 'b.png'],
    [trashed.chat.id, 'c.png'],
  ] as const) {
    const res = await postFile(t.app, `/api/v1/chats/${chatId}/attachments`, who, {
      name,
      type: 'image/png',
      data: TINY_PNG,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  expect(
    (await t.call('POST', `/api/v1/chats/${chat.id}/shares`, who, { audience: 'domain' })).statusCode,
  ).toBe(201);
  expect((await t.call('DELETE', `/api/v1/chats/${trashed.chat.id}`, who)).statusCode).toBe(204);
  for (const scope of ['private', 'domain'] as const) {
    const res = await t.call('POST', '/api/v1/prompts', who, {
      title: `Prompt ${scope}`,
      command: `p-${scope}-${randomUUID().slice(0, 6)}`,
      content: 'Texto',
      scope,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const key = await t.call('POST', '/api/v1/api_keys', who, { name: 'script' });
  expect(key.statusCode, key.body).toBe(201);
  await t.ctx.db.insert(apiUsage).values({
    id: randomUUID(),
    keyId: key.json().id,
    userId: who.user.id,
    domainId: who.user.domainId,
    requestedModel: MODEL,
    model: MODEL,
    stream: false,
    status: 'complete',
  });
  await t.ctx.db.insert(memories).values({
    id: randomUUID(),
    userId: who.user.id,
    domainId: who.user.domainId,
    text: 'Gosta de café',
    source: 'user',
  });
  const [server] = await t.ctx.db
    .insert(mcpServers)
    .values({
      id: randomUUID(),
      domainId: who.user.domainId,
      displayName: 'Meu MCP',
      url: 'https://mcp.example.com',
    })
    .returning();
  await t.ctx.db.insert(mcpTokens).values({ serverId: server!.id, userId: who.user.id, tokensEnc: 'sealed' });
  expect((await t.call('POST', '/api/v1/me/export', who)).statusCode).toBe(201);
  for (const tokens of [100, 250]) {
    await t.ctx.services.usage.record({
      domainId: who.user.domainId,
      departmentId: who.user.departmentId,
      userId: who.user.id,
      source: 'chat',
      model: MODEL,
      tokens: { inputTokens: tokens, outputTokens: 10 },
    });
  }
  const files = await t.ctx.db.select().from(attachments).where(eq(attachments.userId, who.user.id));
  expect(files).toHaveLength(3);
  return { who, chatIds: [chat.id, trashed.chat.id], storageKeys: files.map((f) => f.storageKey) };
}

const rowsOf = async (
  t: TestApp,
  table: typeof memories | typeof apiKeys | typeof apiUsage | typeof mcpTokens,
  userId: string,
) => (await t.ctx.db.select({ n: count() }).from(table).where(eq(table.userId, userId)))[0]?.n ?? 0;

/** Everything of the person still in the database, by table. */
async function leftOf(t: TestApp, p: Person) {
  const userId = p.who.user.id;
  const n = async (q: Promise<Array<{ n: number }>>) => (await q)[0]?.n ?? 0;
  const db = t.ctx.db;
  return {
    user: await n(db.select({ n: count() }).from(users).where(eq(users.id, userId))),
    chats: await n(db.select({ n: count() }).from(chats).where(eq(chats.userId, userId))),
    messages: await n(
      db
        .select({ n: count() })
        .from(messages)
        .innerJoin(chats, eq(chats.id, messages.chatId))
        .where(eq(chats.userId, userId)),
    ),
    attachments: await n(db.select({ n: count() }).from(attachments).where(eq(attachments.userId, userId))),
    shares: await n(db.select({ n: count() }).from(chatShares).where(eq(chatShares.userId, userId))),
    memories: await rowsOf(t, memories, userId),
    apiKeys: await rowsOf(t, apiKeys, userId),
    apiUsage: await rowsOf(t, apiUsage, userId),
    mcpTokens: await rowsOf(t, mcpTokens, userId),
    prompts: await n(db.select({ n: count() }).from(prompts).where(eq(prompts.userId, userId))),
    promptVersions: await n(
      db.select({ n: count() }).from(promptVersions).where(eq(promptVersions.userId, userId)),
    ),
    exports: await n(db.select({ n: count() }).from(dataExports).where(eq(dataExports.requestedBy, userId))),
    usageEvents: await n(db.select({ n: count() }).from(usageEvents).where(eq(usageEvents.userId, userId))),
    usageDays: await n(db.select({ n: count() }).from(usageDaily).where(eq(usageDaily.userId, userId))),
  };
}

/** Whether each stored file is still in the store. */
const stored = async (t: TestApp, keys: readonly string[]) =>
  Promise.all(keys.map(async (k) => (await t.ctx.services.storage.bucket('chats').stat(k)) !== undefined));

function erasureSuite(
  name: string,
  env: () => Record<string, string>,
  after?: (t: TestApp, p: Person) => void,
) {
  describe(name, () => {
    let t: TestApp;
    let where: TestDomain;
    let admin: TestUser;
    let person: Person;
    let held: Person;
    let before: UsageSummary;
    const summary = async () => {
      const today = new Date().toISOString().slice(0, 10);
      const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const res = await t.call('GET', `/api/v1/usage/summary?from=${from}&to=${today}&groupBy=user`, admin);
      expect(res.statusCode, res.body).toBe(200);
      return UsageSummarySchema.parse(res.json());
    };

    beforeAll(async () => {
      t = await buildTestApp(env());
      where = await makeDomain(t.ctx);
      admin = await makeUser(t.ctx, { domain: where, role: 'Admin' });
      person = await personWithData(t, where);
      held = await personWithData(t, where);
      await t.ctx.db.update(users).set({ legalHold: true }).where(eq(users.id, held.who.user.id));
      before = await summary();
    }, 60_000);
    afterAll(() => t.close());

    it('under legal hold the delete is refused (409 LEGAL_HOLD) and nothing of theirs changes', async () => {
      const was = await leftOf(t, held);
      const res = await t.call('DELETE', `/api/v1/user/${held.who.user.id}`, admin);
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res).code).toBe('LEGAL_HOLD');
      expect(await leftOf(t, held)).toEqual(was);
      expect(await stored(t, held.storageKeys)).toEqual([true, true, true]);
      expect(was).toMatchObject({ user: 1, chats: 2, attachments: 3, memories: 1, usageEvents: 2 });
    });

    it('erases their content and files, hands shared prompts over, keeps their usage under a pseudonym', async () => {
      const userId = person.who.user.id;
      const was = await leftOf(t, person);
      expect(was).toMatchObject({
        user: 1,
        chats: 2,
        messages: 3,
        attachments: 3,
        shares: 1,
        memories: 1,
        apiKeys: 1,
        apiUsage: 1,
        mcpTokens: 1,
        prompts: 2,
        exports: 1,
        usageEvents: 2,
      });
      expect(await stored(t, person.storageKeys)).toEqual([true, true, true]);

      const res = await t.call('DELETE', `/api/v1/user/${userId}`, admin);
      expect(res.statusCode, res.body).toBe(204);

      expect(await leftOf(t, person)).toEqual(Object.fromEntries(Object.keys(was).map((k) => [k, 0])));
      expect(await stored(t, person.storageKeys)).toEqual([false, false, false]);
      after?.(t, person);

      // The domain prompt is the organisation's: now the Admin's, still in everyone's library.
      const library = (await t.call('GET', '/api/v1/prompts?scope=domain', admin)).json() as Prompt[];
      expect(library.map((p) => p.title)).toContain('Prompt domain');
      const [handed] = await t.ctx.db
        .select()
        .from(prompts)
        .where(eq(prompts.title, 'Prompt domain'))
        .limit(2);
      expect(handed?.userId).not.toBe(userId);

      // The ledger keeps every call under the pseudonym; the report's totals do not move.
      const alias = `deleted:${pseudonym(userId)}`;
      const [events] = await t.ctx.db
        .select({ n: count() })
        .from(usageEvents)
        .where(eq(usageEvents.userId, alias));
      expect(events?.n).toBe(2);
      const now = await summary();
      expect(now.total).toEqual(before.total);
      const erased = now.rows.find((r) => r.key === alias);
      expect(erased).toMatchObject({
        label: `Deleted user ${pseudonym(userId)}`,
        calls: 2,
        inputTokens: 350,
      });
      expect(JSON.stringify(now)).not.toContain(userId);

      // The record of who deleted whom stays.
      const audit = await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.action, 'user.delete'));
      expect(audit.map((a) => a.targetId)).toEqual([userId]);
      // Nobody else's rows were touched.
      expect(await leftOf(t, held)).toMatchObject({ chats: 2, attachments: 3, usageEvents: 2 });
      const others = await t.ctx.db
        .select({ n: count() })
        .from(usageEvents)
        .where(like(usageEvents.userId, 'deleted:%'));
      expect(others[0]?.n).toBe(2);
    });
  });
}

erasureSuite(
  'erasure with files on disk',
  () => ({}),
  (t, p) => {
    for (const key of p.storageKeys)
      expect(existsSync(path.join(t.dataDir, 'storage', 'chats', key))).toBe(false);
  },
);

let s3: S3Standin;
beforeAll(async () => {
  s3 = await startS3Standin();
  process.env.AWS_ACCESS_KEY_ID = S3_TEST_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3_TEST_CREDENTIALS.secretAccessKey;
});
afterAll(() => s3?.close());
erasureSuite(
  'erasure with files in S3',
  () => ({ STORAGE_URL: `s3://assistente/files?endpoint=${s3.endpoint}&region=us-east-1` }),
  () => {
    // Only the held person's three files are left in the store.
    expect(s3.size()).toBe(3);
  },
);
