import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { objectNotFound, storageForbidden, storageUnauthenticated, storageUnavailable } from './errors.ts';
import { assertValidKey } from './keys.ts';
import type { ObjectMeta, Storage, StoredObject } from './types.ts';

/** What `STORAGE_URL=s3://bucket/prefix?endpoint=…&region=…&forcePathStyle=true` says. */
export interface S3Location {
  bucket: string;
  /** Prepended to every key (from the URL's path), e.g. `assistente/`. */
  prefix: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
}

/** Parses an `s3://` STORAGE_URL; throws a clear message for anything else. */
export function parseS3Url(raw: string): S3Location {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('STORAGE_URL is not a valid URL');
  }
  if (url.protocol !== 's3:') throw new Error('STORAGE_URL must start with s3://');
  if (!url.hostname) throw new Error('STORAGE_URL must name a bucket: s3://bucket?endpoint=…');
  if (url.username || url.password) {
    throw new Error('STORAGE_URL must not carry credentials: set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY');
  }
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\//.test(endpoint)) {
    throw new Error('STORAGE_URL endpoint must be an http(s) URL');
  }
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  const style = url.searchParams.get('forcePathStyle');
  return {
    bucket: decodeURIComponent(url.hostname),
    prefix: path ? `${path}/` : '',
    ...(endpoint ? { endpoint } : {}),
    region: url.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
    // Self-hosted stores (MinIO, Garage, SeaweedFS…) usually want path-style addressing.
    forcePathStyle: style === null ? endpoint !== undefined : style === 'true' || style === '1',
  };
}

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

  return {
    kind: 's3',

    async put(key, body, meta) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: location.bucket,
            Key: keyOf(key),
            Body: body,
            ContentType: meta.contentType,
            ContentLength: meta.size,
          }),
        );
      } catch (err) {
        throw mapError(err);
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

export function createS3Client(location: S3Location, extra: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    // Plain payloads: many S3-compatible stores refuse the SDK's default streaming checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
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
