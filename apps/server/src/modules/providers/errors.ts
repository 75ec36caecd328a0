import { APICallError, RetryError } from 'ai';
import { AppError } from '../../lib/errors.ts';
import { ProviderHttpError } from './factory.ts';
import { BlockedUrlError } from './ssrf.ts';

/** The message the web shows (translated by code) when a domain has no usable model. */
export const NO_PROVIDER_MESSAGE =
  'No AI provider is configured for your organisation. An Admin can add one in Settings → AI models.';

/** Nothing is configured: no provider of the domain, no instance-wide one. */
export const noProvider = () => new AppError('NO_PROVIDER', NO_PROVIDER_MESSAGE);

/** A chat's chosen model that no configured provider offers (any more): the user can pick another. */
export const modelUnavailable = (modelId: string) =>
  new AppError(
    'MODEL_UNAVAILABLE',
    `The model ${modelId} is not available; choose another one in the chat settings.`,
  );

/** Every error reachable from `err` through `cause`, `lastError` and `errors` (RetryError). */
function* chain(err: unknown, depth = 0): Generator<unknown> {
  if (err === undefined || err === null || depth > 6) return;
  yield err;
  if (RetryError.isInstance(err)) {
    yield* chain(err.lastError, depth + 1);
    return;
  }
  if (err instanceof Error && 'cause' in err) yield* chain(err.cause, depth + 1);
}

function statusText(status: number): string {
  if (status < 400) return 'The connection to the provider broke off during the answer; try again.';
  if (status === 401 || status === 403) return `The provider refused the API key (HTTP ${status}).`;
  if (status === 404) return 'The provider does not know this model or URL (HTTP 404).';
  if (status === 429) return 'The provider is limiting requests right now (HTTP 429); try again shortly.';
  if (status >= 500) return `The provider failed (HTTP ${status}); try again later.`;
  return `The provider refused the request (HTTP ${status}).`;
}

/** A failure of the connection to the provider (not a bug of ours): worth a warning, not an error. */
export function isTransportError(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('UND_ERR_') || /^E[A-Z]+$/.test(code))) return true;
    if (e instanceof BlockedUrlError) return true;
  }
  return false;
}

/**
 * A safe, actionable sentence about a provider failure: never the provider's raw body (it may
 * echo the key or internal details), only what kind of failure it was.
 */
export function describeProviderError(err: unknown): string {
  for (const e of chain(err)) {
    if (e instanceof BlockedUrlError) return e.message;
    if (e instanceof ProviderHttpError) return statusText(e.status);
    if (APICallError.isInstance(e)) {
      if (e.statusCode) return statusText(e.statusCode);
    }
  }
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    // undici: the provider closed the connection while answering.
    if (code === 'UND_ERR_SOCKET') return statusText(200);
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'ECONNRESET') {
      return 'Could not reach the provider; check its URL and that it is running.';
    }
    if (e instanceof Error && e.name === 'TimeoutError') return 'The provider did not answer in time.';
  }
  return 'The provider failed to answer; try again later.';
}
