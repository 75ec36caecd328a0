import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExportSchema } from '@assistente/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeChat, makeUser, type TestUser } from '../../test/factories.ts';
import { S3_TEST_CREDENTIALS, type S3Standin, startS3Standin } from '../../test/s3-standin.ts';
import { unzip } from '../../test/zip.ts';

/**
 * An export is written as it is downloaded (docs/ARCHITECTURE.md#export-and-erasure): a person
 * with 3 × 20 MB in S3 gets their first bytes before the files are read, a client that stops
 * reading stops the reads, and the whole ZIP still holds each file byte for byte.
 */

const FILE_BYTES = 20 * 1024 * 1024;
let s3: S3Standin;
let t: TestApp;
let person: TestUser;
let base: string;
const sums = new Map<string, string>();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** The stand-in's reads of stored objects (not the bucket check). */
const objectReads = () => s3.requests.filter((r) => r.method === 'GET' && r.url?.includes('/chats/')).length;

beforeAll(async () => {
  s3 = await startS3Standin();
  process.env.AWS_ACCESS_KEY_ID = S3_TEST_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3_TEST_CREDENTIALS.secretAccessKey;
  t = await buildTestApp({ STORAGE_URL: `s3://assistente/files?endpoint=${s3.endpoint}&region=us-east-1` });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  person = await makeUser(t.ctx);
  const { chat } = await makeChat(t.ctx, person, {
    title: 'Arquivos grandes',
    messages: ['Seguem os vídeos'],
  });
  const store = t.ctx.services.storage.bucket('chats');
  for (const name of ['um.bin', 'dois.bin', 'tres.bin']) {
    const bytes = randomBytes(FILE_BYTES);
    const key = `${person.user.domainId}/${randomUUID()}`;
    await store.put(key, bytes, { contentType: 'application/octet-stream', size: bytes.length });
    await t.ctx.db.insert(attachments).values({
      id: randomUUID(),
      chatId: chat.id,
      userId: person.user.id,
      domainId: person.user.domainId,
      name,
      contentType: 'application/octet-stream',
      size: bytes.length,
      storageKey: key,
    });
    sums.set(name, sha(bytes));
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const get = (path: string) =>
  new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers: person.headers }, resolve);
    req.on('error', reject);
    req.end();
  });

describe('a large export is streamed', () => {
  it('sends its first bytes before the files are read, and reads no further while the client waits', async () => {
    const made = ExportSchema.parse((await t.call('POST', '/api/v1/me/export', person)).json());
    const readsBefore = objectReads();
    const res = await get(made.downloadUrl);
    expect(res.statusCode).toBe(200);
    const [first] = (await once(res, 'data')) as [Buffer];
    res.pause();
    // A ZIP's first local file header: the chat's JSON, written before any file is opened.
    expect(first.subarray(0, 4).toString('hex')).toBe('504b0304');
    await new Promise((r) => setTimeout(r, 750));
    // Held back by the paused client: at most the first file is being read, never all three.
    expect(objectReads() - readsBefore).toBeLessThanOrEqual(1);

    const chunks: Buffer[] = [first];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.resume();
    await once(res, 'end');
    const zip = Buffer.concat(chunks);
    expect(zip.length).toBeGreaterThan(3 * FILE_BYTES);
    const files = await unzip(zip);
    for (const [name, sum] of sums) {
      const entry = [...files.entries()].find(([n]) => n.endsWith(`/${name}`));
      expect(entry, name).toBeDefined();
      expect(sha(entry![1])).toBe(sum);
    }
    expect(objectReads() - readsBefore).toBe(3);
  }, 60_000);

  it('stops reading when the client goes away', async () => {
    const made = ExportSchema.parse((await t.call('POST', '/api/v1/me/export', person)).json());
    const readsBefore = objectReads();
    const res = await get(made.downloadUrl);
    await once(res, 'data');
    res.destroy();
    await new Promise((r) => setTimeout(r, 750));
    expect(objectReads() - readsBefore).toBeLessThanOrEqual(1);
    // The server is fine for the next download.
    const again = await t.call('POST', '/api/v1/me/export', person);
    expect(again.statusCode).toBe(201);
  }, 60_000);
});
