import type { Readable } from 'node:stream';

/** What a store keeps beside the bytes of an object. */
export interface ObjectMeta {
  contentType: string;
  size: number;
}

export interface StoredObject extends ObjectMeta {
  body: Readable;
}

/**
 * One bucket of file storage: local files under DATA_DIR, or any S3-compatible store.
 * Keys are generated ids (`<domain>/<uuid>`), never a file name a user chose.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores `body`, which must be exactly `meta.size` bytes; replaces an object with the same key. */
  put(key: string, body: Readable | Buffer, meta: ObjectMeta): Promise<void>;
  /**
   * Stores the file at path `file` (exactly `meta.size` bytes), streamed, or moved into place when
   * it is on the store's own disk: the file is the store's to take, and the caller removes what
   * is left of it.
   */
  putFile(key: string, file: string, meta: ObjectMeta): Promise<void>;
  /** Throws AppError NOT_FOUND (404) when there is no such object. */
  get(key: string): Promise<StoredObject>;
  /** Undefined when there is no such object. */
  stat(key: string): Promise<ObjectMeta | undefined>;
  /** Removing a missing object is not an error. */
  delete(key: string): Promise<void>;
}

/** The buckets the product uses: chat attachments (the spec's chats bucket), santito avatars, knowledge uploads. */
export type BucketName = 'chats' | 'agents' | 'knowledge';
