import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ChatImportLimits } from '@assistente/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { lyingSizes, zeroBomb, zipOf } from '../../test/chat-exports.ts';
import { openExportZip, UnpackGuard, type ZipLimits } from './import-zip.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'import-zip-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const LIMITS: ZipLimits = ChatImportLimits;

function stored(zip: Buffer): string {
  const file = path.join(dir, `${n++}.zip`);
  writeFileSync(file, zip);
  return file;
}

async function read(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The AppError a promise is refused with. */
async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('not refused');
}

const limitOf = (err: AppError) => (err.details as { limit?: string } | undefined)?.limit;

describe('openExportZip', () => {
  it('finds conversations.json and the shards, in order, in any folder, and nothing else', async () => {
    const zip = await zipOf({
      'chat.html': '<html></html>',
      'user.json': '{}',
      'conversations-010.json': '[10]',
      'conversations-002.json': '[2]',
      'conversations-000.json': '[0]',
      'file-abc.png': Buffer.alloc(10),
      '__MACOSX/._conversations-000.json': 'junk',
      'export/conversations.json': '[9]',
    });
    const archive = await openExportZip(stored(zip), LIMITS);
    try {
      expect(archive.documents).toEqual([
        'conversations-000.json',
        'conversations-002.json',
        'conversations-010.json',
        'export/conversations.json',
      ]);
      const budget = { unpacked: 0 };
      const texts = [];
      for (const name of archive.documents) texts.push(await read(await archive.open(name, budget)));
      expect(texts).toEqual(['[0]', '[2]', '[10]', '[9]']);
      expect(budget.unpacked).toBe(13);
    } finally {
      archive.close();
    }
  });

  it('refuses more entries than the limit before unpacking anything', async () => {
    const files = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`img-${i}.png`, 'x']));
    const err = await refusal(openExportZip(stored(await zipOf(files)), { ...LIMITS, maxEntries: 10 }));
    expect(err.status).toBe(413);
    expect(limitOf(err)).toBe('entries');
    expect(err.message).toContain('more than 10 files');
  });

  it('refuses a document whose header declares a ZIP bomb: too large, too compressed, too much in all', async () => {
    const bomb = stored(zeroBomb('conversations.json', 20));
    const ratio = await refusal(openExportZip(bomb, LIMITS));
    expect([ratio.status, limitOf(ratio)]).toEqual([413, 'ratio']);
    expect(ratio.message).toMatch(/compressed more than 100 times/);

    const json = await refusal(openExportZip(bomb, { ...LIMITS, maxJsonBytes: 10 * 1024 * 1024 }));
    expect(limitOf(json)).toBe('json');

    const total = await refusal(openExportZip(bomb, { ...LIMITS, maxUncompressedBytes: 10 * 1024 * 1024 }));
    expect(limitOf(total)).toBe('uncompressed');
  });

  it('stops a document that unpacks to more than its header says at the first byte too many', async () => {
    const honest = zeroBomb('conversations.json', 20);
    const archive = await openExportZip(stored(lyingSizes(honest, 1000)), LIMITS);
    try {
      const budget = { unpacked: 0 };
      const err = await refusal(read(await archive.open('conversations.json', budget)));
      expect(err.status).toBe(413);
      expect(err.message).toMatch(/unpacks to more than its header says/);
      // Refused long before the 20 MiB it holds were unpacked.
      expect(budget.unpacked).toBeLessThan(2 * 1024 * 1024);
    } finally {
      archive.close();
    }
  });

  it('refuses what is not a ZIP as a damaged file', async () => {
    const err = await refusal(openExportZip(stored(Buffer.from('PK\x03\x04 not really a zip')), LIMITS));
    expect(err.status).toBe(400);
    expect((err.details as { reason: string }).reason).toBe('bad_zip');
  });
});

describe('UnpackGuard', () => {
  /** `total` zero bytes in 64 KiB chunks through a guard; what it let through and its refusal. */
  async function through(
    total: number,
    guard: UnpackGuard,
  ): Promise<{ passed: number; err: AppError | null }> {
    let left = total;
    const source = new Readable({
      read() {
        if (left <= 0) return void this.push(null);
        const size = Math.min(left, 64 * 1024);
        left -= size;
        this.push(Buffer.alloc(size));
      },
    });
    let passed = 0;
    try {
      await pipeline(source, guard, async (s: AsyncIterable<Buffer>) => {
        for await (const c of s) passed += c.length;
      });
      return { passed, err: null };
    } catch (err) {
      if (err instanceof AppError) return { passed, err };
      throw err;
    }
  }

  it('counts what is read, not what headers say: the ratio to the packed size once past 1 MiB', async () => {
    const { passed, err } = await through(
      64 * 1024 * 1024,
      new UnpackGuard('c.json', 10_000, { unpacked: 0 }, LIMITS),
    );
    expect(limitOf(err!)).toBe('ratio');
    expect(passed).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024);
  });

  it('counts every document of a pass against the total', async () => {
    const limits = { ...LIMITS, maxUncompressedBytes: 3 * 1024 * 1024 };
    const budget = { unpacked: 0 };
    const first = await through(2 * 1024 * 1024, new UnpackGuard('a.json', 1024 * 1024, budget, limits));
    expect(first.err).toBeNull();
    const second = await through(2 * 1024 * 1024, new UnpackGuard('b.json', 1024 * 1024, budget, limits));
    expect(limitOf(second.err!)).toBe('uncompressed');
    expect(second.err!.message).toContain('3 MiB');
  });

  it('stops one document at the JSON size limit', async () => {
    const limits = { ...LIMITS, maxJsonBytes: 1024 * 1024 };
    const { err } = await through(
      2 * 1024 * 1024,
      new UnpackGuard('big.json', 2 * 1024 * 1024, { unpacked: 0 }, limits),
    );
    expect(limitOf(err!)).toBe('json');
  });
});
