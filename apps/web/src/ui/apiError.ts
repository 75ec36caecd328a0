import { type ErrorCode, ErrorCodes } from '@assistente/contracts';
import { HttpError, serverErrorMessage } from '../lib/http/errors.ts';
import type { Translate } from '../lib/validation/schemaErrors.ts';

/** The `error.code` of a services' error answer (`CONFLICT`, `FORBIDDEN`…), if any. */
export function apiErrorCode(error: unknown): string | null {
  if (!(error instanceof HttpError)) return null;
  const data = error.data;
  if (typeof data !== 'object' || data === null || !('error' in data)) return null;
  const inner = (data as { error: unknown }).error;
  if (typeof inner !== 'object' || inner === null || !('code' in inner)) return null;
  const code = (inner as { code: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/** `error.details` of a services' error answer. */
export function apiErrorDetails(error: unknown): unknown {
  if (!(error instanceof HttpError)) return undefined;
  const data = error.data;
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  const inner = (data as { error: unknown }).error;
  return typeof inner === 'object' && inner !== null && 'details' in inner
    ? (inner as { details: unknown }).details
    : undefined;
}

/**
 * The message a `VALIDATION_FAILED` answer gives for one field (its detail's `path`, like
 * `webSearch.url`); null when the answer is another or names other fields.
 */
export function apiErrorField(error: unknown, path: string): string | null {
  if (apiErrorCode(error) !== 'VALIDATION_FAILED') return null;
  const details = apiErrorDetails(error);
  if (!Array.isArray(details)) return null;
  for (const d of details as unknown[]) {
    if (typeof d !== 'object' || d === null || !('path' in d) || d.path !== path) continue;
    return 'message' in d && typeof d.message === 'string' ? d.message : '';
  }
  return null;
}

/** A number in `error.details` (e.g. `{ users: 3 }` of a 409 "still has users"). */
export function apiErrorCount(error: unknown, key: string): number | null {
  const details = apiErrorDetails(error);
  if (typeof details !== 'object' || details === null || !(key in details)) return null;
  const value = (details as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : null;
}

/**
 * The text shown for a failed call, in the reader's language: by its error code (every code of the
 * contracts has a text), else by its status; the server's own message (English) only for an answer
 * with no known code, as the last resort (docs/ARCHITECTURE.md#calling-the-api), else a translated fallback.
 */
export function apiErrorText(t: Translate, error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === null) return t('errors.network');
    const code = apiErrorCode(error);
    if (code && isErrorCode(code)) return t(`errors.codes.${code}`);
    if (error.status === 403) return t('errors.forbidden');
    if (error.status === 429) return t('errors.rate_limited');
    if (error.status >= 500) return t('errors.server');
    return serverErrorMessage(error.data) ?? t('http.fallback_error');
  }
  return t('http.fallback_error');
}

function isErrorCode(code: string): code is ErrorCode {
  return (ErrorCodes as readonly string[]).includes(code);
}
