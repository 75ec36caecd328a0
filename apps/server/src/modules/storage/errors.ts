import { AppError } from '../../lib/errors.ts';

/*
 * The storage error mapping of docs/ARCHITECTURE.md#uploads-and-stored-files: 401 unauthenticated, 402 quota exceeded, 403 unauthorised
 * for the path, 404 object not found, 503 when the store cannot be reached.
 */
export const storageUnauthenticated = () => new AppError('UNAUTHENTICATED', 'Sign in to access this file');
export const quotaExceeded = (quotaBytes: number) =>
  new AppError('QUOTA_EXCEEDED', 'Your organisation has used all of its file storage', { quotaBytes });
export const storageForbidden = () => new AppError('FORBIDDEN', 'You are not allowed to access this file');
export const objectNotFound = () => new AppError('NOT_FOUND', 'File not found');
/** The store cannot be reached (or answers 5xx): an outage outside the product, not a fault in it. */
export const storageUnavailable = () =>
  new AppError('STORAGE_UNAVAILABLE', 'File storage is unavailable; nothing was stored, try again');
export const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${formatBytes(maxBytes)}`, {
    maxBytes,
  });
export const unsupportedType = (contentType: string) =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', `Files of type ${contentType || 'unknown'} cannot be uploaded`);
/** An allowed type whose bytes say otherwise (an HTML page named photo.png). */
export const contentMismatch = (contentType: string) =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `The file's content is not ${contentType}, as its name or type says`,
  );

/** A multipart upload route that was sent something else. */
export const notMultipart = () =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data');
export const oneFilePerRequest = () => new AppError('BAD_REQUEST', 'Send one file per request');
export const malformedMultipart = () => new AppError('BAD_REQUEST', 'Malformed or incomplete multipart body');

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${+(n / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}
