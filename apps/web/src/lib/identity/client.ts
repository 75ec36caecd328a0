import type {
  PasswordPolicy,
  RefreshTokenResponse,
  SignInResponse,
  SsoLoginOption,
  UpdateAccountResponse,
} from '@assistente/contracts';
import type { ResponseSchema } from '../http/client.ts';
import { IdentityError, identityErrorFromBody } from './errors.ts';
import {
  refreshTokenResponse,
  resetPasswordResponse,
  signInResponse,
  ssoLoginOptions,
  updateAccountResponse,
} from './responses.ts';

/** Identity calls give up after 30 s on desktop and 60 s on mobile networks (docs/ARCHITECTURE.md#sessions-and-the-identity-client). */
export const NETWORK_TIMEOUT_DESKTOP_MS = 30_000;
export const NETWORK_TIMEOUT_MOBILE_MS = 60_000;

const MOBILE_UA = /iphone|ipad|ipod|android|blackberry|iemobile|webos|opera mini|windows phone|mobile/i;

export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_UA.test(userAgent);
}

export function networkTimeoutMs(userAgent: string = navigator.userAgent): number {
  return isMobileUserAgent(userAgent) ? NETWORK_TIMEOUT_MOBILE_MS : NETWORK_TIMEOUT_DESKTOP_MS;
}

export interface IdentityClientConfig {
  /** `runtimeConfig.identity.baseUrl`, e.g. `/identity`. */
  baseUrl: () => string;
  apiKey: () => string;
  fetch?: typeof fetch;
  timeoutMs?: () => number;
}

export interface IdentityClient {
  signInWithPassword(email: string, password: string): Promise<SignInResponse>;
  refreshIdToken(refreshToken: string): Promise<RefreshTokenResponse>;
  revokeToken(refreshToken: string): Promise<void>;
  sendPasswordResetEmail(email: string, locale: string): Promise<void>;
  /** Checks a reset code; answers the account's email. */
  verifyPasswordResetCode(oobCode: string): Promise<string>;
  confirmPasswordReset(oobCode: string, newPassword: string): Promise<string>;
  getPasswordPolicy(): Promise<PasswordPolicy>;
  /** accounts:update with a new password: needs a recent sign-in; answers the session's new tokens. */
  updatePassword(idToken: string, password: string): Promise<UpdateAccountResponse>;
  /**
   * accounts:signInWithIdp: the one-time code a single sign-on callback left in the login page's
   * fragment becomes a session, answered as a password sign-in is.
   */
  signInWithIdp(code: string, providerId: string, requestUri: string): Promise<SignInResponse>;
  /** The single sign-on providers the login page offers (none: no buttons). */
  listSsoProviders(): Promise<SsoLoginOption[]>;
}

const ANY: ResponseSchema<unknown> = { parse: (data) => data };

/**
 * A small client of the Identity Toolkit REST API (docs/ARCHITECTURE.md#identity): the same requests work against
 * the built-in identity service and a real Firebase project.
 */
export function createIdentityClient(config: IdentityClientConfig): IdentityClient {
  const fetchImpl = config.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = config.timeoutMs ?? (() => networkTimeoutMs());

  async function call<T>(
    path: string,
    init: { method: 'GET' | 'POST'; json?: unknown; form?: Record<string, string> },
    schema: ResponseSchema<T>,
  ): Promise<T> {
    const base = config.baseUrl().replace(/\/+$/, '');
    const url = `${base}${path}?key=${encodeURIComponent(config.apiKey())}`;
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (init.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs());
    let data: unknown;
    let response: Response;
    try {
      response = await fetchImpl(url, { method: init.method, headers, body, signal: controller.signal });
      const text = await response.text();
      data = text === '' ? null : JSON.parse(text);
    } catch (cause) {
      if (cause instanceof SyntaxError) {
        throw new IdentityError('auth/internal-error', undefined, 'Malformed response', { cause });
      }
      throw new IdentityError('auth/network-request-failed', undefined, undefined, { cause });
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) throw identityErrorFromBody(data, response.status);
    try {
      return schema.parse(data);
    } catch (cause) {
      throw new IdentityError('auth/internal-error', undefined, 'Unexpected response', { cause });
    }
  }

  return {
    signInWithPassword: (email, password) =>
      call(
        '/v1/accounts:signInWithPassword',
        { method: 'POST', json: { email, password, returnSecureToken: true } },
        signInResponse,
      ),
    refreshIdToken: (refreshToken) =>
      call(
        '/v1/token',
        { method: 'POST', form: { grant_type: 'refresh_token', refresh_token: refreshToken } },
        refreshTokenResponse,
      ),
    revokeToken: async (refreshToken) => {
      await call('/v2/accounts:revokeToken', { method: 'POST', json: { token: refreshToken } }, ANY);
    },
    sendPasswordResetEmail: async (email, locale) => {
      await call(
        '/v1/accounts:sendOobCode',
        { method: 'POST', json: { requestType: 'PASSWORD_RESET', email, locale } },
        ANY,
      );
    },
    verifyPasswordResetCode: async (oobCode) =>
      (await call('/v1/accounts:resetPassword', { method: 'POST', json: { oobCode } }, resetPasswordResponse))
        .email,
    confirmPasswordReset: async (oobCode, newPassword) => {
      // Identity Toolkit answers `{email, requestType}` here too, but only the status matters.
      const data = await call(
        '/v1/accounts:resetPassword',
        { method: 'POST', json: { oobCode, newPassword } },
        ANY,
      );
      const email = typeof data === 'object' && data !== null && 'email' in data ? data.email : '';
      return typeof email === 'string' ? email : '';
    },
    updatePassword: (idToken, password) =>
      call(
        '/v1/accounts:update',
        { method: 'POST', json: { idToken, password, returnSecureToken: true } },
        updateAccountResponse,
      ),
    signInWithIdp: (code, providerId, requestUri) =>
      call(
        '/v1/accounts:signInWithIdp',
        {
          method: 'POST',
          json: {
            postBody: new URLSearchParams({ code, providerId }).toString(),
            requestUri,
            returnSecureToken: true,
          },
        },
        signInResponse,
      ),
    listSsoProviders: () => call('/sso/providers', { method: 'GET' }, ssoLoginOptions),
    getPasswordPolicy: async () => {
      const { PasswordPolicySchema } = await import('./policySchema.ts');
      return call('/v2/passwordPolicy', { method: 'GET' }, PasswordPolicySchema);
    },
  };
}
