import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { TINY_PNG } from '../../test/chats.ts';
import { S3_TEST_CREDENTIALS, type S3Standin, startS3Standin } from '../../test/s3-standin.ts';
import { resolveUploadType } from './content-types.ts';
import { assertValidKey, newObjectKey } from './keys.ts';
import { localStorage } from './local.ts';
import { createS3Client, parseS3Url, s3Storage } from './s3.ts';
import { contentDisposition } from './serve.ts';
import type { Storage } from './types.ts';

const credentials = S3_TEST_CREDENTIALS;

/** The behaviour every Storage must have, local or S3. */
async function exerciseStorage(store: Storage) {
  const key = newObjectKey('acme.com.br');
  expect(await store.stat(key)).toBeUndefined();
  await expect(store.get(key)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });

  await store.put(key, TINY_PNG, { contentType: 'image/png', size: TINY_PNG.length });
  expect(await store.stat(key)).toEqual({ contentType: 'image/png', size: TINY_PNG.length });
  const got = await store.get(key);
  expect(got.contentType).toBe('image/png');
  expect(got.size).toBe(TINY_PNG.length);
  expect((await buffer(got.body)).equals(TINY_PNG)).toBe(true);

  // A stream of known size; replaces the object.
  const text = Buffer.from('olá, mundo', 'utf8');
  await store.put(key, Readable.from([text.subarray(0, 3), text.subarray(3)]), {
    contentType: 'text/plain',
    size: text.length,
  });
  const again = await store.get(key);
  expect(again.contentType).toBe('text/plain');
  expect((await buffer(again.body)).toString('utf8')).toBe('olá, mundo');

  await store.delete(key);
  expect(await store.stat(key)).toBeUndefined();
  await store.delete(key);
}

describe('local storage', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'assistente-storage-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('puts, gets, stats and deletes objects', async () => {
    await exerciseStorage(localStorage(path.join(root, 'chats')));
  });

  it('refuses a body of another size than declared and leaves nothing behind', async () => {
    const store = localStorage(path.join(root, 'sizes'));
    const key = newObjectKey('d.example');
    await expect(
      store.put(key, Buffer.from('12345'), { contentType: 'text/plain', size: 3 }),
    ).rejects.toThrow();
    await expect(store.put(key, Buffer.from('1'), { contentType: 'text/plain', size: 3 })).rejects.toThrow();
    expect(await store.stat(key)).toBeUndefined();
    const dir = path.join(root, 'sizes', 'd.example');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('putFile moves a file of the declared size into place, and refuses another size keeping nothing', async () => {
    const store = localStorage(path.join(root, 'moved'));
    const spooled = path.join(root, 'spooled');
    writeFileSync(spooled, TINY_PNG);
    const key = newObjectKey('d.example');
    await expect(
      store.putFile(key, spooled, { contentType: 'image/png', size: TINY_PNG.length + 1 }),
    ).rejects.toThrow();
    expect(await store.stat(key)).toBeUndefined();
    await store.putFile(key, spooled, { contentType: 'image/png', size: TINY_PNG.length });
    expect(existsSync(spooled)).toBe(false);
    expect(await store.stat(key)).toEqual({ contentType: 'image/png', size: TINY_PNG.length });
    expect((await buffer((await store.get(key)).body)).equals(TINY_PNG)).toBe(true);
  });

  it('never lets a key leave the bucket', async () => {
    const store = localStorage(path.join(root, 'safe'));
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '.hidden', 'a/./b', 'a\\b', '', 'a b']) {
      expect(() => assertValidKey(key), key).toThrow();
      await expect(store.get(key)).rejects.toThrow(/Invalid storage key/);
    }
    expect(() => assertValidKey('acme.com.br/0b6f0d1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b')).not.toThrow();
  });
});

describe('STORAGE_URL', () => {
  it('parses s3:// URLs', () => {
    expect(
      parseS3Url('s3://chats?endpoint=http://127.0.0.1:9000&region=sa-east-1&forcePathStyle=true'),
    ).toEqual({
      bucket: 'chats',
      prefix: '',
      endpoint: 'http://127.0.0.1:9000',
      region: 'sa-east-1',
      forcePathStyle: true,
    });
    expect(parseS3Url('s3://b/some/prefix/?region=us-east-2')).toMatchObject({
      bucket: 'b',
      prefix: 'some/prefix/',
      forcePathStyle: false,
    });
    // With a custom endpoint, path style is the default.
    expect(parseS3Url('s3://b?endpoint=https://s3.example.com').forcePathStyle).toBe(true);
    expect(parseS3Url('s3://b?endpoint=https://s3.example.com&forcePathStyle=false').forcePathStyle).toBe(
      false,
    );
  });

  it('refuses what is not one, or carries credentials', () => {
    for (const bad of ['http://x', 's3://', 's3://user:pw@b', 's3://b?endpoint=ftp://x', 'nonsense']) {
      expect(() => parseS3Url(bad), bad).toThrow();
    }
  });
});

describe('S3 storage against a local S3-protocol server', () => {
  let fake: S3Standin;
  beforeAll(async () => {
    fake = await startS3Standin();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('puts, gets, stats and deletes through signed path-style requests under bucket and prefix', async () => {
    const location = parseS3Url(`s3://assistente/tenant-a?endpoint=${fake.endpoint}&region=us-east-1`);
    const store = s3Storage(location, 'chats/', { credentials });
    await exerciseStorage(store);
    const put = fake.requests.find((r) => r.method === 'PUT');
    expect(put?.url).toMatch(/^\/assistente\/tenant-a\/chats\/acme\.com\.br\/[0-9a-f-]{36}/);
  });

  it('putFile streams a file to the store', async () => {
    const store = s3Storage(parseS3Url(`s3://b?endpoint=${fake.endpoint}`), 'chats/', { credentials });
    const dir = mkdtempSync(path.join(tmpdir(), 'assistente-s3-file-'));
    try {
      const file = path.join(dir, 'upload');
      writeFileSync(file, TINY_PNG);
      const key = newObjectKey('d.example');
      await store.putFile(key, file, { contentType: 'image/png', size: TINY_PNG.length });
      const got = await store.get(key);
      expect(got).toMatchObject({ contentType: 'image/png', size: TINY_PNG.length });
      expect((await buffer(got.body)).equals(TINY_PNG)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('putFile of a file that cannot be read fails, neither hanging nor storing anything', async () => {
    const store = s3Storage(parseS3Url(`s3://b?endpoint=${fake.endpoint}`), 'chats/', { credentials });
    const key = newObjectKey('d.example');
    const missing = path.join(tmpdir(), 'assistente-no-such-upload');
    await expect(store.putFile(key, missing, { contentType: 'image/png', size: 10 })).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await store.stat(key)).toBeUndefined();
  });

  it('putFile tries a store that is down again with a fresh read of the file, then answers 503', async () => {
    const down = await startS3Standin();
    await down.stop();
    const store = s3Storage(parseS3Url(`s3://b?endpoint=${down.endpoint}`), 'chats/', { credentials });
    const dir = mkdtempSync(path.join(tmpdir(), 'assistente-s3-file-'));
    try {
      const file = path.join(dir, 'upload');
      writeFileSync(file, TINY_PNG);
      const key = newObjectKey('d.example');
      const put = store.putFile(key, file, { contentType: 'image/png', size: TINY_PNG.length });
      // Back between the first try and the last: the upload still lands, whole.
      setTimeout(() => void down.restart(), 50);
      await put;
      const got = await store.get(key);
      expect((await buffer(got.body)).equals(TINY_PNG)).toBe(true);
      await down.stop();
      await expect(
        store.putFile(newObjectKey('d.example'), file, { contentType: 'image/png', size: TINY_PNG.length }),
      ).rejects.toMatchObject({ status: 503, code: 'STORAGE_UNAVAILABLE' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await down.close();
    }
  });

  it('maps the store’s 403 to FORBIDDEN and its 404 to NOT_FOUND', async () => {
    const store = s3Storage(parseS3Url(`s3://b?endpoint=${fake.endpoint}`), 'chats/', { credentials });
    const denied = 'denied/0b6f0d1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    await expect(store.get(denied)).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await expect(store.stat(denied)).rejects.toBeInstanceOf(AppError);
    await expect(
      store.put(denied, Buffer.from('x'), { contentType: 'text/plain', size: 1 }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await expect(store.get('nothing/here')).rejects.toMatchObject({ status: 404, message: 'File not found' });
  });

  it('never sends a key that could leave the bucket', async () => {
    const store = s3Storage(parseS3Url(`s3://b?endpoint=${fake.endpoint}`), 'chats/', { credentials });
    const before = fake.requests.length;
    await expect(store.get('../other-bucket/x')).rejects.toThrow(/Invalid storage key/);
    expect(fake.requests.length).toBe(before);
  });
});

/** moto's S3 server, when this machine has it: the adapter against a real implementation of the protocol. */
const motoServer = spawnSync('sh', ['-c', 'command -v moto_server'], { encoding: 'utf8' }).stdout.trim();
describe.skipIf(!motoServer)('S3 storage against moto_server', () => {
  let child: ChildProcess | undefined;
  let endpoint = '';
  beforeAll(async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    child = spawn(motoServer, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    endpoint = `http://127.0.0.1:${port}`;
    // moto is Python: on a busy machine it takes well over 10 s to listen.
    const deadline = Date.now() + 40_000;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(endpoint)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('moto_server did not start within 40 s');
  }, 60_000);
  afterAll(() => {
    child?.kill();
  });

  it('round-trips objects', async () => {
    const location = parseS3Url(`s3://assistente-test?endpoint=${endpoint}&region=us-east-1`);
    const client = createS3Client(location, { credentials });
    await client.send(new CreateBucketCommand({ Bucket: 'assistente-test' }));
    await exerciseStorage(s3Storage(location, 'chats/', {}, client));
    client.destroy();
  });
});

describe('upload types', () => {
  it('accepts allowed types whose bytes agree', () => {
    expect(resolveUploadType('image/png', 'a.png', TINY_PNG)).toBe('image/png');
    expect(resolveUploadType('image/jpg', 'a.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(resolveUploadType('application/pdf', 'a.pdf', Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(resolveUploadType('text/plain; charset=utf-8', 'a.txt', Buffer.from('olá'))).toBe('text/plain');
    expect(resolveUploadType('', 'notes.MD', Buffer.from('# x'))).toBe('text/markdown');
    expect(resolveUploadType('text/plain', 'data.csv', Buffer.from('a,b'))).toBe('text/csv');
    expect(resolveUploadType('application/json', 'x.json', Buffer.from('{}'))).toBe('application/json');
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(resolveUploadType(docx, 'a.docx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0]))).toBe(docx);
  });

  it('refuses other types and bytes that disagree, with 415', () => {
    const cases: Array<[string, string, Buffer]> = [
      ['text/html', 'a.html', Buffer.from('<p>')],
      ['image/svg+xml', 'a.svg', Buffer.from('<svg/>')],
      ['application/octet-stream', 'a.bin', Buffer.from([1, 2, 3])],
      ['image/png', 'a.png', Buffer.from('GIF89a')],
      ['text/plain', 'a.txt', Buffer.from([0xc3, 0x28])],
      ['application/msword', 'a.doc', Buffer.from('plain')],
      // Extension tricks do not turn a declared type into another one.
      ['application/x-sh', 'a.txt', Buffer.from('#!/bin/sh')],
    ];
    for (const [type, name, data] of cases) {
      expect(() => resolveUploadType(type, name, data), `${type} ${name}`).toThrow(
        expect.objectContaining({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }),
      );
    }
  });
});

describe('Content-Disposition', () => {
  it('is always an attachment, with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('relatório final.pdf')).toBe(
      `attachment; filename="relatorio final.pdf"; filename*=UTF-8''relat%C3%B3rio%20final.pdf`,
    );
    expect(contentDisposition('a"b\r\nSet-Cookie: x.txt')).toBe(
      `attachment; filename="a_b__Set-Cookie: x.txt"; filename*=UTF-8''a_b__Set-Cookie%3A%20x.txt`,
    );
    expect(contentDisposition("it's (1)*.txt")).toContain("filename*=UTF-8''it%27s%20%281%29%2A.txt");
    expect(contentDisposition('')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
    expect(contentDisposition('日本語.txt')).toBe(
      `attachment; filename="download.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt`,
    );
  });
});
