import {
  type AddressProblem,
  AddressProblems,
  type ProviderFailure,
  type UrlBlockedDetail,
} from '@assistente/contracts';
import type { TFunction } from '../../../lib/i18n/index.ts';
import { apiErrorCode, apiErrorDetails } from '../../../ui/apiError.ts';

/** The host of an address as typed, for sentences about it; the address itself when it has none. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return url;
  }
}

/** What went wrong with an address the server must reach, in the reader's language. */
export function addressText(
  t: TFunction,
  reason: AddressProblem,
  url: string,
  where: { host?: string | undefined; address?: string | undefined } = {},
): string {
  const host = where.host ?? hostOf(url);
  const address = where.address ?? host;
  // A private address typed as such needs no "(it resolves to…)".
  const key = reason === 'private' && address === host ? 'private_literal' : reason;
  return t(`providers.address.${key}`, { host, address });
}

/** The server's refusal of the address in `field` (`url_blocked`), if that is what `error` is. */
export function blockedAddress(error: unknown, field: string): UrlBlockedDetail | undefined {
  const details = apiErrorDetails(error);
  if (apiErrorCode(error) !== 'VALIDATION_FAILED' || !Array.isArray(details)) return undefined;
  return details.find(
    (d): d is UrlBlockedDetail =>
      typeof d === 'object' &&
      d !== null &&
      d.path === field &&
      d.code === 'url_blocked' &&
      (AddressProblems as readonly unknown[]).includes(d.reason),
  );
}

/** Why a call to the provider at `url` (when known) failed, in the reader's language. */
export function failureText(t: TFunction, failure: ProviderFailure, url: string | null): string {
  if (failure.code === 'unreachable' && failure.address && (failure.host || url)) {
    return addressText(t, failure.address, url ?? '', failure.host ? { host: failure.host } : {});
  }
  return t(`providers.failure.${failure.code}`, { status: String(failure.status ?? '') });
}
