import { existsSync, readdirSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeChat, makeDomain, makeUser, type TestUser } from '../../test/factories.ts';
import { S3_TEST_CREDENTIALS, type S3Standin, startS3Standin } from '../../test/s3-standin.ts';
import { UPLOADS_AT_ONCE } from './admission.ts';

/**
 * Uploads stream from the request to the store, never whole in memory
 * (docs/ARCHITECTURE.md#uploads-and-stored-files): the body goes to a spool file as it arrives, and
 * whatever ends an upload early (the client gone, too large, bytes of another type) leaves no
 * spool file, no object and no row behind.
 */

const UPLOAD_MAX = 1024 * 1024;
const BOUNDARY = 'assistente-stream-boundary';
const KiB = 1024;

const head = (name: string, type: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

interface Suite {
  t: TestApp;
  port: number;
  owner: TestUser;
  chatId: string;
}

/** An app listening on a real socket (a client can go away mid-body), with a chat to attach to. */
async function startSuite(env: Record<string, string> = {}): Promise<Suite> {
  const t = await buildTestApp({ UPLOAD_MAX_BYTES: String(UPLOAD_MAX), ...env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const domain = await makeDomain(t.ctx);
  const owner = await makeUser(t.ctx, { domain });
  const chatId = (await makeChat(t.ctx, owner)).chat.id;
  return { t, port: (t.app.server.address() as AddressInfo).port, owner, chatId };
}

/**
 * An attachment upload over a real socket; `contentLength` undefined sends the body chunked, as
 * a client that does not say its size.
 */
function openUpload(
  s: Suite,
  contentLength?: number,
  to: { owner: TestUser; chatId: string } = { owner: s.owner, chatId: s.chatId },
) {
  let answered: (res: IncomingMessage & { body: string }) => void;
  const response = new Promise<IncomingMessage & { body: string }>((resolve) => {
    answered = resolve;
  });
  const req = httpRequest(
    {
      host: '127.0.0.1',
      port: s.port,
      method: 'POST',
      path: `/api/v1/chats/${to.chatId}/attachments`,
      headers: {
        ...to.owner.headers,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        ...(contentLength === undefined ? {} : { 'content-length': String(contentLength) }),
      },
    },
    (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => answered(Object.assign(res, { body })));
    },
  );
  req.on('error', () => {
    // A client that goes away, or a server that stops reading after its answer.
  });
  return { req, response };
}

/** Every file under `dir` (none when it does not exist), with its size. */
function filesUnder(dir: string): Array<{ file: string; size: number }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      return { file: path.relative(dir, file), size: statSync(file).size };
    });
}

const rowsOf = async (s: Suite, chatId = s.chatId) => {
  const [row] = await s.t.ctx.db
    .select({ n: count() })
    .from(attachments)
    .where(eq(attachments.chatId, chatId));
  return row?.n ?? 0;
};

describe('uploads stream to the local store', () => {
  let s: Suite;
  let spool: string;
  let bucket: string;
  beforeAll(async () => {
    s = await startSuite();
    spool = path.join(s.t.dataDir, 'storage', '.incoming');
    bucket = path.join(s.t.dataDir, 'storage', 'chats', s.owner.user.domainId);
  });
  afterAll(async () => {
    await s?.t.close();
  });

  it('an upload abandoned mid-body leaves no file and no row, and frees its slot', async () => {
    const gate = s.t.ctx.services.storage.uploads;
    const data = Buffer.alloc(768 * KiB, 'a');
    const first = head('half.txt', 'text/plain');
    const { req } = openUpload(s, first.length + data.length + tail.length);
    req.write(first);
    req.write(data.subarray(0, 384 * KiB));
    // The bytes sent so far are on disk, not held in memory, while the rest is awaited.
    await expect
      .poll(() => filesUnder(spool).reduce((n, f) => n + f.size, 0), { timeout: 10_000 })
      .toBeGreaterThan(0);
    req.destroy();
    await expect.poll(() => gate.active + gate.waiting, { timeout: 10_000 }).toBe(0);
    expect(filesUnder(spool)).toEqual([]);
    expect(filesUnder(bucket)).toEqual([]);
    expect(await rowsOf(s)).toBe(0);
  });

  it('an upload whose client left while it waited for a slot frees the slot; the others are stored', async () => {
    const gate = s.t.ctx.services.storage.uploads;
    const owner = await makeUser(s.t.ctx, { domain: await makeDomain(s.t.ctx) });
    const to = { owner, chatId: (await makeChat(s.t.ctx, owner)).chat.id };
    const body = Buffer.concat([head('small.txt', 'text/plain'), Buffer.from('hello'), tail]);
    const uploads = Array.from({ length: UPLOADS_AT_ONCE + 2 }, () => {
      const upload = openUpload(s, body.length, to);
      // Only the part headers: each holds its slot, or waits for one.
      upload.req.write(body.subarray(0, head('small.txt', 'text/plain').length));
      return upload;
    });
    await expect.poll(() => gate.active + gate.waiting, { timeout: 10_000 }).toBe(uploads.length);
    const gone = uploads.pop()!;
    gone.req.destroy();
    for (const u of uploads) u.req.end(body.subarray(head('small.txt', 'text/plain').length));
    const answers = await Promise.all(uploads.map((u) => u.response));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(uploads.length).fill(201));
    await expect.poll(() => gate.active + gate.waiting, { timeout: 10_000 }).toBe(0);
    expect(filesUnder(spool)).toEqual([]);
    expect(await rowsOf(s, to.chatId)).toBe(uploads.length);
  });

  it('an upload of no declared size is refused with 413 at the limit, and leaves no file', async () => {
    const { req, response } = openUpload(s);
    req.write(head('big.txt', 'text/plain'));
    // Past the limit in 64 KiB writes, as a client streaming a file it did not measure.
    const chunk = Buffer.alloc(64 * KiB, 'a');
    for (let sent = 0; sent <= UPLOAD_MAX; sent += chunk.length) req.write(chunk);
    req.end(tail);
    const res = await response;
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { maxBytes: UPLOAD_MAX },
    });
    expect(filesUnder(spool)).toEqual([]);
    expect(filesUnder(bucket)).toEqual([]);
    expect(await rowsOf(s)).toBe(0);
  });

  it('checks all of a text file on its way: a bad byte past the first chunks is 415, and nothing is kept', async () => {
    const data = Buffer.concat([Buffer.alloc(512 * KiB, 'a'), Buffer.from([0xc3]), Buffer.from('(')]);
    const first = head('notes.txt', 'text/plain');
    const { req, response } = openUpload(s, first.length + data.length + tail.length);
    req.end(Buffer.concat([first, data, tail]));
    const res = await response;
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(res.body).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(filesUnder(spool)).toEqual([]);
    expect(filesUnder(bucket)).toEqual([]);
    expect(await rowsOf(s)).toBe(0);
  });

  it('stores a whole upload byte for byte, moved from the spool into the bucket', async () => {
    // Multi-byte characters across every chunk boundary are still text.
    const text = Buffer.from('olá, mundo — ação! '.repeat(30_000), 'utf8');
    const first = head('long.txt', 'text/plain');
    const { req, response } = openUpload(s, first.length + text.length + tail.length);
    req.end(Buffer.concat([first, text, tail]));
    const res = await response;
    expect(res.statusCode, res.body).toBe(201);
    const att = JSON.parse(res.body) as { url: string; size: number; contentType: string };
    expect(att).toMatchObject({ size: text.length, contentType: 'text/plain' });
    expect(filesUnder(spool)).toEqual([]);
    const stored = filesUnder(bucket).filter((f) => !f.file.endsWith('.meta.json'));
    expect(stored.map((f) => f.size)).toEqual([text.length]);
    const dl = await s.t.app.inject({ url: att.url, headers: s.owner.headers });
    expect(dl.rawPayload.equals(text)).toBe(true);
    expect(await rowsOf(s)).toBe(1);
  });
});

describe('uploads stream to an S3 store', () => {
  let s3: S3Standin;
  let s: Suite;
  let spool: string;
  beforeAll(async () => {
    s3 = await startS3Standin();
    process.env.AWS_ACCESS_KEY_ID = S3_TEST_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3_TEST_CREDENTIALS.secretAccessKey;
    s = await startSuite({ STORAGE_URL: `s3://assistente/files?endpoint=${s3.endpoint}&region=us-east-1` });
    spool = path.join(s.t.dataDir, 'incoming');
  });
  afterAll(async () => {
    await s?.t.close();
    await s3?.close();
  });

  it('an upload abandoned mid-body sends nothing to the store and leaves no spool file', async () => {
    const data = Buffer.alloc(768 * KiB, 'a');
    const first = head('half.txt', 'text/plain');
    const { req } = openUpload(s, first.length + data.length + tail.length);
    req.write(first);
    req.write(data.subarray(0, 384 * KiB));
    await expect
      .poll(() => filesUnder(spool).reduce((n, f) => n + f.size, 0), { timeout: 10_000 })
      .toBeGreaterThan(0);
    req.destroy();
    const gate = s.t.ctx.services.storage.uploads;
    await expect.poll(() => gate.active + gate.waiting, { timeout: 10_000 }).toBe(0);
    expect(filesUnder(spool)).toEqual([]);
    expect(s3.requests.filter((r) => r.method === 'PUT')).toEqual([]);
    expect(s3.size()).toBe(0);
    expect(await rowsOf(s)).toBe(0);
  });

  it('streams a whole upload into the store byte for byte, and removes its spool file', async () => {
    const data = Buffer.alloc(700 * KiB);
    for (let i = 0; i < data.length; i++) data[i] = 0x61 + (i % 26);
    const first = head('letters.txt', 'text/plain');
    const { req, response } = openUpload(s, first.length + data.length + tail.length);
    req.end(Buffer.concat([first, data, tail]));
    const res = await response;
    expect(res.statusCode, res.body).toBe(201);
    const att = JSON.parse(res.body) as { url: string; size: number };
    expect(att.size).toBe(data.length);
    expect(s3.size()).toBe(1);
    expect(filesUnder(spool)).toEqual([]);
    const dl = await s.t.app.inject({ url: att.url, headers: s.owner.headers });
    expect(dl.rawPayload.equals(data)).toBe(true);
  });
});
