import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.ts';
import { UPLOADS_AT_ONCE, UploadGate } from './admission.ts';
import { localStorage } from './local.ts';
import { createS3Client, parseS3Url, s3Reachable, s3Storage } from './s3.ts';
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
    /** The process's upload slots (admission.ts). */
    uploads: new UploadGate(UPLOADS_AT_ONCE),
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
    /**
     * Whether files can be stored now, for /readyz: an S3 store answers within two seconds; the
     * data directory is the process's own disk, ready while the process is.
     */
    async reachable(): Promise<boolean> {
      const url = config.STORAGE_URL?.trim();
      if (!url || url.startsWith('file:')) return true;
      const location = parseS3Url(url);
      s3 ??= createS3Client(location);
      return s3Reachable(s3, location, 2_000);
    },
    /** Releases the S3 client's sockets (on app close). */
    close(): void {
      s3?.destroy();
      buckets.clear();
    },
  };
}
