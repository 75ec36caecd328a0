import type { IdentityErrorBody, IdentityErrorMessage } from '@assistente/contracts';
import { AppError, invalidIdToken } from '../../lib/errors.ts';

/**
 * An error answered by the identity routes in Identity Toolkit's shape:
 * `{error:{code:400,message:"INVALID_LOGIN_CREDENTIALS",errors:[…]}}`.
 * A `detail`, when given, follows the code after " : " as Identity Toolkit does, so the
 * Firebase SDK and `splitIdentityErrorMessage` read both.
 */
export class IdentityError extends Error {
  constructor(
    readonly code: IdentityErrorMessage,
    readonly detail?: string,
    readonly status = 400,
  ) {
    super(detail ? `${code} : ${detail}` : code);
    this.name = 'IdentityError';
  }

  toBody(): IdentityErrorBody {
    return {
      error: {
        code: this.status,
        message: this.message,
        errors: [
          {
            message: this.message,
            domain: 'global',
            reason: this.status >= 500 ? 'backendError' : 'invalid',
          },
        ],
      },
    };
  }
}

export const identityError = (code: IdentityErrorMessage, detail?: string) => new IdentityError(code, detail);

/*
 * The identity service's refusals to the rest of the server (the admin API, the caller resolver):
 * ordinary AppErrors, not Identity Toolkit bodies (docs/ARCHITECTURE.md#error-model).
 */
export const invalidEmail = () => new AppError('VALIDATION_FAILED', 'Invalid email address');
export const displayNameTooLong = (max: number) =>
  new AppError('VALIDATION_FAILED', `Display name must have at most ${max} characters`);
export const accountEmailTaken = () => new AppError('CONFLICT', 'An account with this email already exists');
export const accountNotFound = () => new AppError('NOT_FOUND', 'Account not found');
export const accountDisabled = () => new AppError('FORBIDDEN', 'This account is disabled');
export const idTokenRefused = (expired: boolean) =>
  expired ? new AppError('UNAUTHENTICATED', 'Id token expired') : invalidIdToken();
/** `problem` is the policy's own sentence; `reason` names it the way Identity Toolkit does. */
export const weakPassword = (problem: string) =>
  new AppError('VALIDATION_FAILED', problem, { reason: 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS' });
