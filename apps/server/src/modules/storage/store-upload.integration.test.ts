import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeChat, makeDomain, makeUser } from '../../test/factories.ts';
import { type StoredUpload, storeUpload } from './store-upload.ts';
import { storageUsage } from './usage.ts';

const QUOTA = 100;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ STORAGE_QUOTA_BYTES: String(QUOTA) });
});
afterAll(async () => {
  await t?.close();
});

const text = (bytes: number) => ({
  fileName: 'notes.txt',
  declaredType: 'text/plain',
  data: Buffer.alloc(bytes, 'a'),
});

/** The attachment row accounting for `stored`, in `chatId` (which may not exist). */
const attachmentRow = (
  owner: { user: { id: string; domainId: string } },
  chatId: string,
  stored: StoredUpload,
) => ({
  id: randomUUID(),
  chatId,
  userId: owner.user.id,
  domainId: owner.user.domainId,
  name: 'notes.txt',
  contentType: stored.contentType,
  size: stored.size,
  storageKey: stored.key,
});

/** The object files (not their metadata) stored for a domain in the chats bucket. */
function storedFiles(domainId: string): string[] {
  const dir = path.join(t.dataDir, 'storage', 'chats', domainId);
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.endsWith('.meta.json')) : [];
}

describe('storeUpload: bytes → quota → row → undo', () => {
  it('stores the bytes and the row that accounts for them', async () => {
    const dom = await makeDomain(t.ctx);
    const { domain } = dom;
    const owner = await makeUser(t.ctx, { domain: dom });
    const { chat } = await makeChat(t.ctx, owner);
    const row = await storeUpload(t.ctx, {
      bucket: 'chats',
      domainId: domain.id,
      file: text(40),
      maxBytes: 1000,
      record: async (tx, stored) => {
        const [inserted] = await tx
          .insert(attachments)
          .values(attachmentRow(owner, chat.id, stored))
          .returning();
        return inserted!;
      },
    });
    expect(row.contentType).toBe('text/plain');
    expect(storedFiles(domain.id)).toEqual([row.storageKey.split('/')[1]]);
    expect(await storageUsage(t.ctx.db, domain.id)).toBe(40);
  });

  it('deletes the stored bytes when the row insert fails', async () => {
    const dom = await makeDomain(t.ctx);
    const { domain } = dom;
    const owner = await makeUser(t.ctx, { domain: dom });
    let storedWhileRecording: string[] = [];
    const upload = storeUpload(t.ctx, {
      bucket: 'chats',
      domainId: domain.id,
      file: text(10),
      maxBytes: 1000,
      record: async (tx, stored) => {
        storedWhileRecording = storedFiles(domain.id);
        // No such chat: the foreign key refuses the row.
        await tx.insert(attachments).values(attachmentRow(owner, randomUUID(), stored));
      },
    });
    await expect(upload).rejects.toThrow();
    expect(storedWhileRecording).toHaveLength(1);
    expect(storedFiles(domain.id)).toEqual([]);
    expect(await storageUsage(t.ctx.db, domain.id)).toBe(0);
  });

  it('deletes the stored bytes when the quota refuses them (402), and records nothing', async () => {
    const { domain } = await makeDomain(t.ctx);
    let recorded = false;
    // Room is left (0 of 100 bytes used), so the bytes are stored; they do not fit, so they go.
    const upload = storeUpload(t.ctx, {
      bucket: 'chats',
      domainId: domain.id,
      file: text(QUOTA + 1),
      maxBytes: 1000,
      record: async () => {
        recorded = true;
      },
    });
    await expect(upload).rejects.toMatchObject({ status: 402, code: 'QUOTA_EXCEEDED' });
    expect(recorded).toBe(false);
    // The domain's folder was made for the bytes, and is empty again.
    expect(existsSync(path.join(t.dataDir, 'storage', 'chats', domain.id))).toBe(true);
    expect(storedFiles(domain.id)).toEqual([]);
  });

  it('refuses an empty, oversized or disallowed file before storing anything', async () => {
    const { domain } = await makeDomain(t.ctx);
    const base = { bucket: 'chats' as const, domainId: domain.id, maxBytes: 50, record: async () => {} };
    await expect(storeUpload(t.ctx, { ...base, file: text(0) })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(storeUpload(t.ctx, { ...base, file: text(51) })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    await expect(storeUpload(t.ctx, { ...base, file: text(10), types: ['image/png'] })).rejects.toMatchObject(
      {
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
    );
    expect(existsSync(path.join(t.dataDir, 'storage', 'chats', domain.id))).toBe(false);
  });
});
