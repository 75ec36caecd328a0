import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { AppError, invalidField } from '../../lib/errors.ts';
import { resolveUploadType } from './content-types.ts';
import { tooLarge } from './errors.ts';
import { newObjectKey } from './keys.ts';
import { assertRoomLeft, withinQuota } from './quota.ts';
import type { BucketName } from './types.ts';
import { type ReadUpload, uploadSize } from './upload.ts';

/** What was stored of an upload, for the row that accounts for it. */
export interface StoredUpload {
  key: string;
  contentType: string;
  size: number;
}

export interface StoreUploadOptions<T> {
  bucket: BucketName;
  /** The domain whose quota pays for the bytes; their key is made under it. */
  domainId: string;
  file: ReadUpload;
  maxBytes: number;
  /** Content types accepted (default: every type uploads allow). */
  types?: readonly string[];
  /**
   * Writes the row that accounts for the bytes, inside the quota's transaction; throwing (e.g. the
   * owner was deleted meanwhile) rolls it back and deletes the bytes.
   */
  record: (tx: Tx, stored: StoredUpload) => Promise<T>;
}

/**
 * The one upload sequence (attachments, avatars, knowledge documents, a tool's file): refuse what
 * is too large, empty or of a type not allowed; store the bytes under a generated key (a spooled
 * upload streams or moves from its file, never read into memory); then record the row within the
 * domain's quota. When the quota (402) or the row fails, the stored bytes are deleted again, so a
 * refused upload leaves nothing behind.
 */
export async function storeUpload<T>(ctx: AppContext, opts: StoreUploadOptions<T>): Promise<T> {
  const { file } = opts;
  const size = uploadSize(file);
  if (size > opts.maxBytes) throw tooLarge(opts.maxBytes);
  if (size === 0) throw invalidField('file', 'The file is empty');
  const content = 'data' in file ? file.data : file.sniff;
  const contentType = resolveUploadType(file.declaredType, file.fileName, content, opts.types);
  // Cheap refusal before writing anything; withinQuota below is the exact, locked check.
  await assertRoomLeft(ctx, opts.domainId);
  const bucket = ctx.services.storage.bucket(opts.bucket);
  const key = newObjectKey(opts.domainId);
  const meta = { contentType, size };
  if ('data' in file) await bucket.put(key, file.data, meta);
  else await bucket.putFile(key, file.path, meta);
  try {
    return await withinQuota(ctx, opts.domainId, size, (tx) => opts.record(tx, { key, contentType, size }));
  } catch (err) {
    await deleteStored(ctx, opts.bucket, [key]);
    throw err;
  }
}

/** An object to copy (`copyStored`): its key in the source bucket and what is known of it. */
export interface StoredSource {
  key: string;
  contentType: string;
  size: number;
}

/**
 * Copies stored objects under fresh keys of `domainId` (a shared chat continued by a reader of
 * another domain), then runs `record` within that domain's quota for their total size, as an
 * upload's row is. An object no longer in the store is left out (`undefined` in `stored`). When the
 * quota (402) or `record` fails, the copies are deleted again: a refused copy leaves nothing behind.
 */
export async function copyStored<T>(
  ctx: AppContext,
  opts: {
    bucket: BucketName;
    domainId: string;
    sources: readonly StoredSource[];
    record: (tx: Tx, stored: Array<StoredUpload | undefined>) => Promise<T>;
  },
): Promise<T> {
  const total = opts.sources.reduce((n, f) => n + f.size, 0);
  // Cheap refusal before copying anything; withinQuota below is the exact, locked check.
  await assertRoomLeft(ctx, opts.domainId, total);
  const bucket = ctx.services.storage.bucket(opts.bucket);
  const stored: Array<StoredUpload | undefined> = [];
  try {
    for (const source of opts.sources) {
      const object = await bucket.get(source.key).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'NOT_FOUND') return undefined;
        throw err;
      });
      if (!object) {
        ctx.log.warn({ key: source.key, bucket: opts.bucket }, 'a file to copy is missing from storage');
        stored.push(undefined);
        continue;
      }
      const key = newObjectKey(opts.domainId);
      await bucket.put(key, object.body, { contentType: source.contentType, size: object.size });
      stored.push({ key, contentType: source.contentType, size: object.size });
    }
    const bytes = stored.reduce((n, f) => n + (f?.size ?? 0), 0);
    return await withinQuota(ctx, opts.domainId, bytes, (tx) => opts.record(tx, stored));
  } catch (err) {
    await deleteStored(
      ctx,
      opts.bucket,
      stored.flatMap((f) => (f ? [f.key] : [])),
    );
    throw err;
  }
}

/**
 * Deletes stored objects; a failure leaves an orphan behind (logged), never an error for the caller.
 * Answers the keys it could not delete, for a caller that must not record them as gone.
 */
export async function deleteStored(
  ctx: AppContext,
  bucket: BucketName,
  keys: readonly string[],
): Promise<string[]> {
  const store = ctx.services.storage.bucket(bucket);
  const failed: string[] = [];
  await Promise.all(
    keys.map((key) =>
      store.delete(key).catch((err: unknown) => {
        failed.push(key);
        ctx.log.warn({ err, key, bucket }, 'could not delete a stored object');
      }),
    ),
  );
  return failed;
}
