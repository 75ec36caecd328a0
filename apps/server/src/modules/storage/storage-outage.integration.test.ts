import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments } from '../../db/schema/index.ts';
import { buildTestApp, errorOf, type TestApp } from '../../test/app.ts';
import { postFile, TINY_PNG } from '../../test/chats.ts';
import type { TestUser } from '../../test/factories.ts';
import { makeChat, makeDomain, makeUser } from '../../test/factories.ts';
import { S3_TEST_CREDENTIALS, type S3Standin, startS3Standin } from '../../test/s3-standin.ts';

/**
 * The S3 store goes down under a running app and comes back (docs/ARCHITECTURE.md#uploads-and-stored-files):
 * uploads answer 503 STORAGE_UNAVAILABLE with one warning, /readyz says storage is not ready while
 * /healthz stays live, nothing half-stored is left, and uploads work again once the store is back.
 */

let s3: S3Standin;
let t: TestApp;
let owner: TestUser;
let chatId: string;
let storedId: string;

const upload = (name: string) =>
  postFile(t.app, `/api/v1/chats/${chatId}/attachments`, owner, { name, type: 'image/png', data: TINY_PNG });
const attachmentCount = async () => {
  const [row] = await t.ctx.db.select({ n: count() }).from(attachments).where(eq(attachments.chatId, chatId));
  return row?.n ?? 0;
};

beforeAll(async () => {
  s3 = await startS3Standin();
  // The SDK's default credential chain, as an operator sets it.
  process.env.AWS_ACCESS_KEY_ID = S3_TEST_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3_TEST_CREDENTIALS.secretAccessKey;
  t = await buildTestApp(
    { STORAGE_URL: `s3://assistente/files?endpoint=${s3.endpoint}&region=us-east-1` },
    { captureLogs: true },
  );
  const domain = await makeDomain(t.ctx);
  owner = await makeUser(t.ctx, { domain });
  chatId = (await makeChat(t.ctx, owner)).chat.id;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

describe('the file store goes down and comes back', () => {
  it('stores uploads in S3 and is ready while the store answers', async () => {
    const res = await upload('before.png');
    expect(res.statusCode, res.body).toBe(201);
    storedId = (res.json() as { attachmentId: string }).attachmentId;
    expect(s3.size()).toBe(1);
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
  });

  it('answers 503 STORAGE_UNAVAILABLE while it is down, logs one warning, keeps nothing', async () => {
    await s3.stop();
    const before = await attachmentCount();
    t.logs.length = 0;
    const res = await upload('during.png');
    expect(res.statusCode, res.body).toBe(503);
    expect(errorOf(res).code).toBe('STORAGE_UNAVAILABLE');
    expect(await attachmentCount()).toBe(before);
    expect(t.logs.filter((l) => l.level >= 50)).toEqual([]);
    expect(t.logs.filter((l) => l.level === 40)).toHaveLength(1);
    // What is stored cannot be read either: the same answer, not a 500.
    const file = await t.call('GET', `/api/v1/chats/${chatId}/attachments/${storedId}`, owner);
    expect(file.statusCode).toBe(503);
    expect(errorOf(file).code).toBe('STORAGE_UNAVAILABLE');
  });

  it('is not ready while the store is down, and still live', async () => {
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', unavailable: ['storage'] });
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('serves again once the store is back', async () => {
    await s3.restart();
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    const res = await upload('after.png');
    expect(res.statusCode, res.body).toBe(201);
    expect(s3.size()).toBe(2);
  });
});
