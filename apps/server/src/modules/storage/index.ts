import { defineModule } from '../../lib/module.ts';
import { createStorage, type StorageService } from './registry.ts';

export { receiveUpload, UploadGate } from './admission.ts';
export { objectNotFound } from './errors.ts';

/** What an upload route may answer besides its own codes: too large, wrong type, no room, no store. */
export const UPLOAD_ERRORS = [
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'QUOTA_EXCEEDED',
  'STORAGE_UNAVAILABLE',
] as const;
export { assertRoomLeft } from './quota.ts';
export type { StorageService } from './registry.ts';
export { contentDisposition, sendStoredObject } from './serve.ts';
export {
  copyStored,
  deleteStored,
  type StoredSource,
  type StoredUpload,
  storeUpload,
} from './store-upload.ts';
export type { BucketName, ObjectMeta, Storage, StoredObject } from './types.ts';
export { type ReadUpload, type SpooledUpload, spoolSingleUpload } from './upload.ts';

declare module '../../context.ts' {
  interface Services {
    storage: StorageService;
  }
}

/** Stored files, on disk or S3; served by the modules that own them (docs/ARCHITECTURE.md#uploads-and-stored-files). */
export const storageModule = defineModule({
  name: 'storage',
  hostedBy: 'accounts',
  services: (ctx) => ({ storage: createStorage(ctx.config) }),
  close: (s) => s.storage?.close(),
});
