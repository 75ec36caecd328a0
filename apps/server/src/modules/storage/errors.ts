import { AppError } from '../../lib/errors.ts';

/**
 * The storage error mapping of docs/ARCHITECTURE.md#uploads-and-stored-files: 401 unauthenticated, 402 quota exceeded, 403 unauthorised
 * for the path, 404 object not found.
 */
export const storageErrors = {
  unauthenticated: () => new AppError('UNAUTHENTICATED', 'Sign in to access this file'),
  quotaExceeded: (quotaBytes: number) =>
    new AppError('QUOTA_EXCEEDED', 'Your organisation has used all of its file storage', { quotaBytes }),
  forbidden: () => new AppError('FORBIDDEN', 'You are not allowed to access this file'),
  objectNotFound: () => new AppError('NOT_FOUND', 'File not found'),
  tooLarge: (maxBytes: number) =>
    new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${formatBytes(maxBytes)}`, {
      maxBytes,
    }),
  unsupportedType: (contentType: string) =>
    new AppError('UNSUPPORTED_MEDIA_TYPE', `Files of type ${contentType || 'unknown'} cannot be uploaded`),
  /** An allowed type whose bytes say otherwise (an HTML page named photo.png). */
  contentMismatch: (contentType: string) =>
    new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The file's content is not ${contentType}, as its name or type says`,
    ),
} as const;

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${+(n / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}
