export { resolveUploadType } from './content-types.ts';
export { objectNotFound } from './errors.ts';
export { newObjectKey } from './keys.ts';
export { assertRoomLeft, storageUsage, withinQuota } from './quota.ts';
export { createStorage, type StorageService } from './registry.ts';
export { contentDisposition, sendStoredObject } from './serve.ts';
export { deleteStored, type StoredUpload, storeUpload } from './store-upload.ts';
export type { BucketName, ObjectMeta, Storage, StoredObject } from './types.ts';
export { type ReadUpload, readSingleUpload } from './upload.ts';
