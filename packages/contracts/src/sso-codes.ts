// What the login page needs of single sign-on, kept free of zod like roles.ts: the login page's
// JavaScript budget has no room for the schema library.

/** Google is an OpenID Connect issuer like any other; only its button is worded differently. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';

export const SsoKinds = ['google', 'oidc'] as const;
export type SsoKind = (typeof SsoKinds)[number];

/** "google" when the issuer is Google's, else "oidc" (the login button says "Sign in with {name}"). */
export function ssoKindOf(issuer: string): SsoKind {
  return issuer.replace(/\/+$/, '') === GOOGLE_ISSUER ? 'google' : 'oidc';
}

/** The provider id of an instance-wide provider from OIDC_* environment variables. */
export const ENV_SSO_PROVIDER_ID = 'env';

/**
 * Why a single sign-on failed, sent back to the login page as `?ssoError=`; the web translates each.
 * Nothing is created on any of them.
 */
export const SsoErrorCodes = [
  /** The provider is unknown or disabled. */
  'SSO_PROVIDER_NOT_FOUND',
  /** The provider could not be reached or answered something unusable (discovery, token, id token). */
  'SSO_PROVIDER_ERROR',
  /** The round trip did not match what this browser started (state, nonce, expired or replayed). */
  'SSO_STATE_INVALID',
  /** The person cancelled or the provider refused (`error=` on the callback). */
  'SSO_DENIED',
  'SSO_EMAIL_NOT_VERIFIED',
  'SSO_DOMAIN_NOT_ALLOWED',
  /** Unknown person and the provider does not create accounts: "ask your Admin". */
  'SSO_NOT_PROVISIONED',
  'SSO_USER_DISABLED',
] as const;
export type SsoErrorCode = (typeof SsoErrorCodes)[number];

export function isSsoErrorCode(value: unknown): value is SsoErrorCode {
  return typeof value === 'string' && (SsoErrorCodes as readonly string[]).includes(value);
}

/** A provider as the login page lists it (GET /identity/sso/providers). */
export interface SsoLoginOption {
  id: string;
  displayName: string;
  kind: SsoKind;
}
