import type { IdentityErrorBody, IdentityErrorMessage } from '@assistente/contracts';

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
