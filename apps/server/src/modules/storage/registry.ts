import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../config.ts';
import { UPLOADS_AT_ONCE, UploadGate } from './admission.ts';
import { localStorage } from './local.ts';
import { parseS3Url, type S3Location } from './s3-url.ts';
import type { BucketName, Storage } from './types.ts';

/**
 * s3.ts and the AWS SDK under it, loaded by the first call that reaches S3: a server storing files
 * on its own disk never loads them (docs/ARCHITECTURE.md#build-and-run).
 */
let s3Module: Promise<typeof import('./s3.ts')> | undefined;
const loadS3 = () => {
  s3Module ??= import('./s3.ts');
  return s3Module;
};

export type StorageService = ReturnType<typeof createStorage>;

/** A spooled upload this old was left by a process that died while reading it. */
const STALE_SPOOL_MS = 60 * 60_000;

/** Makes the spool directory and removes what a process that died left in it. */
async function prepareSpool(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const cutoff = Date.now() - STALE_SPOOL_MS;
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && info.mtimeMs < cutoff) await rm(file, { force: true, recursive: true });
  }
  return dir;
}

/**
 * The storage of each bucket: `${DATA_DIR}/storage/<bucket>/…` by default, or `<bucket>/…` inside the
 * S3 bucket of `STORAGE_URL=s3://…`. One client per app, shared by every bucket.
 */
export function createStorage(config: Pick<Config, 'STORAGE_URL' | 'dataDir'>) {
  const buckets = new Map<BucketName, Storage>();
  let s3: S3Client | undefined;
  const clientFor = async (location: S3Location) => {
    const { createS3Client } = await loadS3();
    s3 ??= createS3Client(location);
    return s3;
  };
  /** A bucket's S3 store, made once the SDK is loaded; each call waits for it. */
  const s3Bucket = (location: S3Location, name: BucketName): Storage => {
    let made: Promise<Storage> | undefined;
    const store = () => {
      made ??= Promise.all([loadS3(), clientFor(location)]).then(([{ s3Storage }, client]) =>
        s3Storage(location, `${name}/`, {}, client),
      );
      return made;
    };
    return {
      kind: 's3',
      put: async (key, body, meta) => (await store()).put(key, body, meta),
      putFile: async (key, file, meta) => (await store()).putFile(key, file, meta),
      get: async (key) => (await store()).get(key),
      stat: async (key) => (await store()).stat(key),
      delete: async (key) => (await store()).delete(key),
    };
  };
  let spool: Promise<string> | undefined;
  /** The S3 store of STORAGE_URL, or the local root the buckets are folders of. */
  const where = (): { s3: string } | { root: string } => {
    const url = config.STORAGE_URL?.trim();
    if (url && !url.startsWith('file:')) return { s3: url };
    return { root: url ? new URL(url).pathname : path.join(config.dataDir, 'storage') };
  };
  return {
    /** The process's upload slots (admission.ts). */
    uploads: new UploadGate(UPLOADS_AT_ONCE),
    bucket(name: BucketName): Storage {
      let store = buckets.get(name);
      if (!store) {
        const at = where();
        if ('s3' in at) {
          store = s3Bucket(parseS3Url(at.s3), name);
        } else {
          store = localStorage(path.join(at.root, name));
        }
        buckets.set(name, store);
      }
      return store;
    },
    /**
     * A fresh path for an upload on its way to a bucket (upload.ts streams it there, admission.ts
     * removes it): beside the local buckets, so storing it is a rename, or under DATA_DIR for S3.
     */
    async spoolPath(): Promise<string> {
      const at = where();
      const dir = 'root' in at ? path.join(at.root, '.incoming') : path.join(config.dataDir, 'incoming');
      spool ??= prepareSpool(dir).catch((err: unknown) => {
        spool = undefined;
        throw err;
      });
      return path.join(await spool, randomUUID());
    },
    /**
     * Whether files can be stored now, for /readyz: an S3 store answers within two seconds; the
     * data directory is the process's own disk, ready while the process is.
     */
    async reachable(): Promise<boolean> {
      const at = where();
      if ('root' in at) return true;
      const location = parseS3Url(at.s3);
      const [{ s3Reachable }, client] = await Promise.all([loadS3(), clientFor(location)]);
      return s3Reachable(client, location, 2_000);
    },
    /** Releases the S3 client's sockets (on app close). */
    close(): void {
      s3?.destroy();
      buckets.clear();
    },
  };
}
