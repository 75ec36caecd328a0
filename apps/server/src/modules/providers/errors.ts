import type { ProviderFailure } from '@assistente/contracts';
import { APICallError, RetryError } from 'ai';
import { AppError, notFound } from '../../lib/errors.ts';
import { addressProblemOf, BlockedUrlError } from '../../lib/ssrf.ts';
import { ProviderHttpError } from './factory.ts';

/** The message the web shows (translated by code) when a domain has no usable model. */
export const NO_PROVIDER_MESSAGE =
  'No AI provider is configured for your organisation. An Admin can add one in Settings → AI models.';

export const providerNotFound = () => notFound('Provider not found');

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

/** A failure of the connection to the provider (not a bug of ours): worth a warning, not an error. */
export function isTransportError(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('UND_ERR_') || /^E[A-Z]+$/.test(code))) return true;
    if (e instanceof BlockedUrlError) return true;
  }
  return false;
}

/** What an HTTP status from the provider means for the person who sees it. */
function failureOfStatus(status: number): ProviderFailure {
  if (status < 400) return { code: 'broken_off' };
  if (status === 401 || status === 403) return { code: 'key_refused', status };
  if (status === 404) return { code: 'not_found', status };
  if (status === 429) return { code: 'rate_limited', status };
  if (status >= 500) return { code: 'provider_failed', status };
  return { code: 'request_refused', status };
}

/**
 * What kind of provider failure `err` is, as a code the web translates: never the provider's
 * raw body (it may echo the key or internal details).
 */
export function providerFailureOf(err: unknown): ProviderFailure {
  for (const e of chain(err)) {
    if (e instanceof BlockedUrlError) {
      return { code: 'unreachable', address: e.reason, ...(e.where.host ? { host: e.where.host } : {}) };
    }
    if (e instanceof ProviderHttpError) return failureOfStatus(e.status);
    if (APICallError.isInstance(e) && e.statusCode) return failureOfStatus(e.statusCode);
  }
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    // undici: the provider closed the connection while answering.
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return { code: 'broken_off' };
  }
  const address = addressProblemOf(err);
  if (address === 'timeout') return { code: 'timeout' };
  if (address) {
    const host = hostOfError(err);
    return { code: 'unreachable', address, ...(host ? { host } : {}) };
  }
  return { code: 'failed' };
}

/** The host a connection error names (`hostname` when resolving failed, `address` when connecting did). */
function hostOfError(err: unknown): string | undefined {
  for (const e of chain(err)) {
    const { hostname, address } = e as { hostname?: unknown; address?: unknown };
    if (typeof hostname === 'string' && hostname) return hostname;
    if (typeof address === 'string' && address) return address;
  }
  return undefined;
}

/** The failure in English, for logs and API clients (people read `providerFailureOf`, translated). */
export function describeProviderError(err: unknown): string {
  return describeFailure(providerFailureOf(err));
}

function describeFailure(f: ProviderFailure): string {
  switch (f.code) {
    case 'key_refused':
      return `The provider refused the API key (HTTP ${f.status}).`;
    case 'not_found':
      return 'The provider does not know this model or URL (HTTP 404).';
    case 'rate_limited':
      return 'The provider is limiting requests right now (HTTP 429); try again shortly.';
    case 'provider_failed':
      return `The provider failed (HTTP ${f.status}); try again later.`;
    case 'request_refused':
      return `The provider refused the request (HTTP ${f.status}).`;
    case 'broken_off':
      return 'The connection to the provider broke off during the answer; try again.';
    case 'unreachable': {
      const at = f.host ? ` at ${f.host}` : '';
      if (f.address === 'private') {
        return `The provider${at} is at a private address; it must be public or in PROVIDER_URL_ALLOWLIST.`;
      }
      if (f.address === 'unresolvable')
        return `${f.host ?? "The provider's host"} does not resolve; check the URL.`;
      if (f.address === 'refused')
        return `The provider${at} refused the connection; check that it is running.`;
      return `Could not reach the provider${at}; check its URL and that it is running.`;
    }
    case 'timeout':
      return 'The provider did not answer in time.';
    case 'failed':
      return 'The provider failed to answer; try again later.';
    default:
      return assertNever(f.code);
  }
}

function assertNever(x: never): never {
  throw new Error(`Unknown provider failure ${String(x)}`);
}

/** The domain's model access rules close the model to the caller (docs/ARCHITECTURE.md#model-access). */
export const modelNotAllowed = (modelId: string) =>
  new AppError(
    'MODEL_NOT_ALLOWED',
    `The model ${modelId} is not open to you in your organisation; choose another one.`,
  );
