export { objectNotFound } from './errors.ts';
export { assertRoomLeft } from './quota.ts';
export { createStorage, type StorageService } from './registry.ts';
export { contentDisposition, sendStoredObject } from './serve.ts';
export { deleteStored, type StoredUpload, storeUpload } from './store-upload.ts';
export type { BucketName, ObjectMeta, Storage, StoredObject } from './types.ts';
export { type ReadUpload, readSingleUpload } from './upload.ts';
