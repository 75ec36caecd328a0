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

/** A number in `error.details` (e.g. `{ users: 3 }` of a 409 "still has users"). */
export function apiErrorCount(error: unknown, key: string): number | null {
  const details = apiErrorDetails(error);
  if (typeof details !== 'object' || details === null || !(key in details)) return null;
  const value = (details as Record<string, unknown>)[key];
  return typeof value === 'number' ? value : null;
}

/**
 * The text shown for a failed call: no connection and missing rights get translated texts; other
 * refusals carry the server's own explanation (spec §8), else a translated fallback.
 */
export function apiErrorText(t: Translate, error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === null) return t('errors.network');
    if (error.status === 403) return t('errors.forbidden');
    if (error.status === 429) return t('errors.rate_limited');
    if (error.status >= 500) return t('errors.server');
    return serverErrorMessage(error.data) ?? t('http.fallback_error');
  }
  return t('http.fallback_error');
}
