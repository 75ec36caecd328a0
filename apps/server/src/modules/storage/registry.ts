import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.ts';
import { localStorage } from './local.ts';
import { createS3Client, parseS3Url, s3Storage } from './s3.ts';
import type { BucketName, Storage } from './types.ts';

export type StorageService = ReturnType<typeof createStorage>;

/**
 * The storage of each bucket: `${DATA_DIR}/storage/<bucket>/…` by default, or `<bucket>/…` inside the
 * S3 bucket of `STORAGE_URL=s3://…`. One client per app, shared by every bucket.
 */
export function createStorage(config: Pick<Config, 'STORAGE_URL' | 'dataDir'>) {
  const buckets = new Map<BucketName, Storage>();
  let s3: S3Client | undefined;
  return {
    bucket(name: BucketName): Storage {
      let store = buckets.get(name);
      if (!store) {
        const url = config.STORAGE_URL?.trim();
        if (url && !url.startsWith('file:')) {
          const location = parseS3Url(url);
          s3 ??= createS3Client(location);
          store = s3Storage(location, `${name}/`, {}, s3);
        } else {
          const root = url ? new URL(url).pathname : path.join(config.dataDir, 'storage');
          store = localStorage(path.join(root, name));
        }
        buckets.set(name, store);
      }
      return store;
    },
    /** Releases the S3 client's sockets (on app close). */
    close(): void {
      s3?.destroy();
      buckets.clear();
    },
  };
}
