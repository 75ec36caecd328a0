import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { AppContext } from '../../context.ts';
import { localStorage } from './local.ts';
import { createS3Client, parseS3Url, s3Storage } from './s3.ts';
import type { BucketName, Storage } from './types.ts';

export { resolveUploadType } from './content-types.ts';
export { storageErrors } from './errors.ts';
export { newObjectKey } from './keys.ts';
export { assertRoomLeft, storageUsage, withinQuota } from './quota.ts';
export { contentDisposition, sendStoredObject } from './serve.ts';
export type { BucketName, ObjectMeta, Storage, StoredObject } from './types.ts';

interface Stores {
  buckets: Map<BucketName, Storage>;
  s3?: S3Client;
}

const perContext = new WeakMap<AppContext, Stores>();

/**
 * The storage of one bucket: `${DATA_DIR}/storage/<bucket>/…` by default, or `<bucket>/…` inside the
 * S3 bucket of `STORAGE_URL=s3://…`. One client per app, shared by every bucket.
 */
export function storageFor(ctx: AppContext, bucket: BucketName): Storage {
  let stores = perContext.get(ctx);
  if (!stores) {
    stores = { buckets: new Map() };
    perContext.set(ctx, stores);
  }
  let store = stores.buckets.get(bucket);
  if (!store) {
    const url = ctx.config.STORAGE_URL?.trim();
    if (url && !url.startsWith('file:')) {
      const location = parseS3Url(url);
      stores.s3 ??= createS3Client(location);
      store = s3Storage(location, `${bucket}/`, {}, stores.s3);
    } else {
      const root = url ? new URL(url).pathname : path.join(ctx.config.dataDir, 'storage');
      store = localStorage(path.join(root, bucket));
    }
    stores.buckets.set(bucket, store);
  }
  return store;
}

/** Releases the S3 client's sockets (on app close). */
export function closeStorage(ctx: AppContext): void {
  perContext.get(ctx)?.s3?.destroy();
  perContext.delete(ctx);
}
export { type ReadUpload, readSingleUpload } from './upload.ts';
