/** Firebase-style `auth/…` codes this client produces. */
export const AuthErrorCodes = [
  'auth/invalid-credential',
  'auth/wrong-password',
  'auth/user-not-found',
  'auth/user-disabled',
  'auth/too-many-requests',
  'auth/user-token-expired',
  'auth/invalid-user-token',
  'auth/invalid-action-code',
  'auth/expired-action-code',
  'auth/password-does-not-meet-requirements',
  'auth/weak-password',
  'auth/invalid-email',
  'auth/missing-email',
  'auth/missing-password',
  'auth/operation-not-allowed',
  'auth/requires-recent-login',
  'auth/user-mismatch',
  'auth/invalid-idp-response',
  'auth/network-request-failed',
  'auth/internal-error',
] as const;
export type AuthErrorCode = (typeof AuthErrorCodes)[number];

/** Identity Toolkit `error.message` values → `auth/…` codes (the Firebase SDK's server error map). */
const SERVER_ERRORS: Record<string, AuthErrorCode> = {
  INVALID_LOGIN_CREDENTIALS: 'auth/invalid-credential',
  INVALID_PASSWORD: 'auth/wrong-password',
  EMAIL_NOT_FOUND: 'auth/user-not-found',
  USER_DISABLED: 'auth/user-disabled',
  TOO_MANY_ATTEMPTS_TRY_LATER: 'auth/too-many-requests',
  TOKEN_EXPIRED: 'auth/user-token-expired',
  USER_NOT_FOUND: 'auth/user-token-expired',
  INVALID_REFRESH_TOKEN: 'auth/invalid-user-token',
  INVALID_ID_TOKEN: 'auth/invalid-user-token',
  INVALID_OOB_CODE: 'auth/invalid-action-code',
  EXPIRED_OOB_CODE: 'auth/expired-action-code',
  PASSWORD_DOES_NOT_MEET_REQUIREMENTS: 'auth/password-does-not-meet-requirements',
  WEAK_PASSWORD: 'auth/weak-password',
  INVALID_EMAIL: 'auth/invalid-email',
  MISSING_EMAIL: 'auth/missing-email',
  MISSING_PASSWORD: 'auth/missing-password',
  OPERATION_NOT_ALLOWED: 'auth/operation-not-allowed',
  PASSWORD_LOGIN_DISABLED: 'auth/operation-not-allowed',
  CREDENTIAL_TOO_OLD_LOGIN_AGAIN: 'auth/requires-recent-login',
  USER_MISMATCH: 'auth/user-mismatch',
  INVALID_IDP_RESPONSE: 'auth/invalid-idp-response',
};

/** Codes after which the stored session cannot be used any more. */
export const SESSION_ENDING_CODES: readonly AuthErrorCode[] = [
  'auth/user-token-expired',
  'auth/invalid-user-token',
  'auth/user-disabled',
];

export class IdentityError extends Error {
  override name = 'IdentityError';
  constructor(
    readonly code: AuthErrorCode,
    /** The server's message code (`INVALID_LOGIN_CREDENTIALS`), when the server answered. */
    readonly serverCode?: string,
    /** The server's explanation after ` : ` (e.g. which password requirement failed). */
    readonly detail?: string,
    options?: { cause?: unknown },
  ) {
    super(detail ? `${code}: ${detail}` : code, options);
  }
}

/**
 * Maps an Identity Toolkit error message (`"PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing
 * uppercase"`) to an `IdentityError`.
 */
export function identityErrorFromServerMessage(message: string): IdentityError {
  const separator = message.indexOf(' : ');
  const serverCode = (separator === -1 ? message : message.slice(0, separator)).trim();
  const detail = separator === -1 ? undefined : message.slice(separator + 3).trim() || undefined;
  return new IdentityError(SERVER_ERRORS[serverCode] ?? 'auth/internal-error', serverCode, detail);
}

/** Reads `{error:{message}}` from an identity response body. */
export function identityErrorFromBody(body: unknown, status: number): IdentityError {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === 'object' && error !== null && 'message' in error) {
      const message = (error as { message: unknown }).message;
      if (typeof message === 'string') return identityErrorFromServerMessage(message);
    }
  }
  if (status === 429) return new IdentityError('auth/too-many-requests');
  return new IdentityError('auth/internal-error', undefined, `HTTP ${status}`);
}

export function isIdentityError(error: unknown, code?: AuthErrorCode): error is IdentityError {
  return error instanceof IdentityError && (code === undefined || error.code === code);
}
