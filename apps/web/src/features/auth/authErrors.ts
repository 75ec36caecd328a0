import type { TFunction } from '../../lib/i18n/index.ts';
import { type AuthErrorCode, AuthErrorCodes, IdentityError } from '../../lib/identity/errors.ts';

/** The translation key of an `auth/…` code (`auth.errors.invalid-credential`). */
function authErrorKey(code: AuthErrorCode): string {
  return `auth.errors.${code.slice('auth/'.length)}`;
}

export const AUTH_ERROR_KEYS: readonly string[] = AuthErrorCodes.map(authErrorKey);

/** A translated text for a sign-in or password-reset failure. */
export function authErrorText(t: TFunction, error: unknown): string {
  const code: AuthErrorCode = error instanceof IdentityError ? error.code : 'auth/internal-error';
  return t(authErrorKey(code));
}
