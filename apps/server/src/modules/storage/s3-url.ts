// What an `s3://` STORAGE_URL says, apart from the S3 client (s3.ts): reading the setting loads no
// AWS SDK, which a server storing files on its own disk never needs (docs/ARCHITECTURE.md#build-and-run).

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
