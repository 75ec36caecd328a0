import { type ErrorBody, type ErrorCode, ErrorStatus } from '@assistente/contracts';

/** The one error type services throw; the error plugin turns it into the contract's error body. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.status = ErrorStatus[code];
  }

  toBody(): ErrorBody {
    return {
      error: {
        status: this.status,
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export const notFound = (what = 'Not found') => new AppError('NOT_FOUND', what);
export const forbidden = (msg = 'You do not have permission to do this') => new AppError('FORBIDDEN', msg);
export const unauthenticated = (msg = 'Authentication required') => new AppError('UNAUTHENTICATED', msg);
export const invalidIdToken = () => unauthenticated('Invalid id token');
/** A paging cursor this server did not make (or made for another list). */
export const invalidCursor = () => new AppError('BAD_REQUEST', 'Invalid cursor');

/**
 * A 400 naming the offending field, in the shape zod's refusals get (`path: message`, details per
 * field); `code` marks a refusal the web says in its own words.
 */
export const invalidField = (path: string, message: string, code?: string) =>
  new AppError('VALIDATION_FAILED', `${path}: ${message}`, [{ path, message, ...(code ? { code } : {}) }]);
