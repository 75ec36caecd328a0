import { randomUUID } from 'node:crypto';

const KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,254}){0,7}$/;

/** A fresh object key under the domain: ids only, never a name a user chose. */
export function newObjectKey(domainId: string): string {
  return `${domainId.toLowerCase().replace(/[^a-z0-9.-]/g, '_')}/${randomUUID()}`;
}

/** Refuses keys that could escape the bucket (`..`, absolute paths, odd characters). */
export function assertValidKey(key: string): void {
  if (!KEY_RE.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}
