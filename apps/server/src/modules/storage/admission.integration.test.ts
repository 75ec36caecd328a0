import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { TINY_PNG } from '../../test/chats.ts';
import type { TestUser } from '../../test/factories.ts';
import { makeChat, makeDomain, makeUser } from '../../test/factories.ts';
import { UPLOADS_AT_ONCE, UploadGate } from './admission.ts';

/**
 * Uploads are admitted before their bodies are read (docs/ARCHITECTURE.md#uploads-and-stored-files):
 * a Content-Length over the limit or over the domain's room is refused at once, and a process reads
 * at most UPLOADS_AT_ONCE bodies at a time.
 */

const QUOTA = 1024 * 1024;
const BOUNDARY = 'assistente-test-boundary';

let t: TestApp;
let port: number;
let owner: TestUser;
let chatId: string;

beforeAll(async () => {
  t = await buildTestApp({ STORAGE_QUOTA_BYTES: String(QUOTA) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  const domain = await makeDomain(t.ctx);
  owner = await makeUser(t.ctx, { domain });
  chatId = (await makeChat(t.ctx, owner)).chat.id;
});
afterAll(async () => {
  await t?.close();
});

const head = (name: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
  );
const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** An upload over a real socket that declares `contentLength` and sends only what it is told to. */
function openUpload(contentLength: number) {
  let answered: (res: IncomingMessage & { body: string }) => void;
  const response = new Promise<IncomingMessage & { body: string }>((resolve) => {
    answered = resolve;
  });
  const req = httpRequest(
    {
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/v1/chats/${chatId}/attachments`,
      headers: {
        ...owner.headers,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(contentLength),
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
    // The server may close a socket whose body it will not read: the answer came first.
  });
  req.flushHeaders();
  return { req, response };
}

describe('upload admission', () => {
  it('refuses a declared size over the limit at once, before any of the body is sent', async () => {
    const started = Date.now();
    const { req, response } = openUpload(t.ctx.config.UPLOAD_MAX_BYTES + 1024 * 1024);
    const res = await response;
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(Date.now() - started).toBeLessThan(5_000);
    req.destroy();
  });

  it('refuses a declared size the domain has no room for at once', async () => {
    const { req, response } = openUpload(2 * QUOTA);
    const res = await response;
    expect(res.statusCode).toBe(402);
    expect(JSON.parse(res.body).error.code).toBe('QUOTA_EXCEEDED');
    req.destroy();
  });

  it(`reads at most ${UPLOADS_AT_ONCE} bodies at once; the rest wait unread and then succeed`, async () => {
    const gate = t.ctx.services.storage.uploads;
    const count = UPLOADS_AT_ONCE + 3;
    const uploads = Array.from({ length: count }, (_, i) => {
      const body = Buffer.concat([head(`p${i}.png`), TINY_PNG, tail]);
      const upload = openUpload(body.length);
      // Only the part headers: each body stays open, as a slow client's would.
      upload.req.write(head(`p${i}.png`));
      return { ...upload, rest: body.subarray(head(`p${i}.png`).length) };
    });
    await expect.poll(() => gate.active + gate.waiting, { timeout: 10_000 }).toBe(count);
    expect(gate.active).toBe(UPLOADS_AT_ONCE);
    expect(gate.waiting).toBe(count - UPLOADS_AT_ONCE);
    for (const u of uploads) u.req.end(u.rest);
    const answers = await Promise.all(uploads.map((u) => u.response));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(count).fill(201));
    expect(gate.active + gate.waiting).toBe(0);
  });
});

describe('UploadGate', () => {
  it('hands slots over in arrival order and frees them after failures too', async () => {
    const gate = new UploadGate(1);
    const order: number[] = [];
    let release!: () => void;
    const first = gate.run(() => new Promise<void>((r) => (release = r)).then(() => order.push(1)));
    const second = gate.run(async () => {
      order.push(2);
      throw new Error('boom');
    });
    const third = gate.run(async () => order.push(3));
    expect(gate.waiting).toBe(2);
    release();
    await first;
    await expect(second).rejects.toThrow('boom');
    await third;
    expect(order).toEqual([1, 2, 3]);
    expect(gate.active).toBe(0);
  });
});
