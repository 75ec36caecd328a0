import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { AppError } from '../../lib/errors.ts';
import { objectNotFound, storageForbidden, storageUnauthenticated, storageUnavailable } from './errors.ts';
import { assertValidKey } from './keys.ts';
import type { S3Location } from './s3-url.ts';
import type { ObjectMeta, Storage, StoredObject } from './types.ts';

export { parseS3Url, type S3Location } from './s3-url.ts';

interface SdkError {
  name?: string;
  code?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

/** How a store that is down, restarting or unreachable fails before it answers anything. */
const TRANSPORT_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const statusOf = (err: unknown) => (err as SdkError | undefined)?.$metadata?.httpStatusCode;

/**
 * The store's own 401/403/404 become the storage errors of docs/ARCHITECTURE.md#uploads-and-stored-files;
 * a store that cannot be reached or answers 5xx is STORAGE_UNAVAILABLE (503); anything else stays a 500.
 */
function mapError(err: unknown): unknown {
  const e = err as SdkError | undefined;
  const status = statusOf(err);
  if (status === 404 || e?.name === 'NoSuchKey' || e?.name === 'NotFound') return objectNotFound();
  if (status === 401) return storageUnauthenticated();
  if (status === 403) return storageForbidden();
  if (status !== undefined && status >= 500) return storageUnavailable();
  if (status === undefined && (TRANSPORT_FAILURES.has(e?.code ?? '') || e?.name === 'TimeoutError')) {
    return storageUnavailable();
  }
  return err;
}

/** Tries of a `putFile`, as the SDK's own retries (`maxAttempts`) give a buffer. */
const FILE_PUT_ATTEMPTS = 3;

/**
 * Any S3-compatible store through the AWS SDK. Credentials come from the SDK's default chain
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY in the environment), never from the URL.
 * `bucketPrefix` keeps the product's buckets apart inside the one S3 bucket (`chats/…`, `agents/…`).
 */
export function s3Storage(
  location: S3Location,
  bucketPrefix: string,
  extra: Partial<S3ClientConfig> = {},
  client: S3Client = createS3Client(location, extra),
): Storage {
  const keyOf = (key: string) => {
    assertValidKey(key);
    return `${location.prefix}${bucketPrefix}${key}`;
  };

  async function put(
    key: string,
    body: Readable | Buffer,
    meta: ObjectMeta,
    abortSignal?: AbortSignal,
  ): Promise<void> {
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: location.bucket,
          Key: keyOf(key),
          Body: body,
          ContentType: meta.contentType,
          ContentLength: meta.size,
        }),
        abortSignal ? { abortSignal } : {},
      );
    } catch (err) {
      throw mapError(err);
    }
  }

  return {
    kind: 's3',

    put,

    async putFile(key, file, meta) {
      // The SDK does not retry a stream it has begun to send; a fresh read of the file can be.
      for (let attempt = 1; ; attempt++) {
        const body = createReadStream(file);
        // The SDK pipes the body without watching it: a failed read must end the request here,
        // not hang it or go uncaught.
        const abort = new AbortController();
        let readFailed: unknown;
        body.once('error', (err) => {
          readFailed = err;
          abort.abort(err);
        });
        try {
          return await put(key, body, meta, abort.signal);
        } catch (err) {
          // A store that refused the connection never read it: its file handle is closed here.
          body.destroy();
          if (readFailed) throw readFailed;
          const transient = err instanceof AppError && err.code === 'STORAGE_UNAVAILABLE';
          if (!transient || attempt >= FILE_PUT_ATTEMPTS) throw err;
          await sleep(100 * attempt);
        }
      }
    },

    async get(key): Promise<StoredObject> {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: keyOf(key) }));
        if (!(res.Body instanceof Readable)) throw new Error('S3 GetObject answered without a body stream');
        return {
          body: res.Body,
          contentType: res.ContentType ?? 'application/octet-stream',
          size: res.ContentLength ?? 0,
        };
      } catch (err) {
        throw mapError(err);
      }
    },

    async stat(key): Promise<ObjectMeta | undefined> {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: location.bucket, Key: keyOf(key) }));
        return { contentType: res.ContentType ?? 'application/octet-stream', size: res.ContentLength ?? 0 };
      } catch (err) {
        if (statusOf(err) === 404) return undefined;
        throw mapError(err);
      }
    },

    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: keyOf(key) }));
      } catch (err) {
        if (statusOf(err) === 404) return;
        throw mapError(err);
      }
    },
  };
}

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export function createS3Client(location: S3Location, extra: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    // Plain payloads: many S3-compatible stores refuse the SDK's default streaming checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // Silent, as the SDK is by default, but without its one fallback to the console (a failed
    // streaming upload, which putFile retries itself).
    logger: quietLogger,
    ...extra,
  });
}

/**
 * Whether the store answers at all (a HEAD of the bucket), for /readyz. Any answer from the store
 * counts, a refusal too: readiness is about reaching it, and a refused key shows on its own routes.
 */
export async function s3Reachable(
  client: S3Client,
  location: S3Location,
  timeoutMs: number,
): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: location.bucket }), {
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    return true;
  } catch (err) {
    const status = statusOf(err);
    return status !== undefined && status < 500;
  }
}
