import { z } from 'zod';

/**
 * The closed set of error codes every service but identity answers with, over HTTP and in the
 * agents websocket's `error` frames alike. The web translates each by code, e.g. `NO_PROVIDER` →
 * "no AI provider is configured; an Admin can add one in Settings → AI models".
 */
export const ErrorCodes = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'USER_NOT_FOUND',
  'DOMAIN_NOT_FOUND',
  'DEPARTMENT_NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'QUOTA_EXCEEDED',
  'RATE_LIMITED',
  'INVALID_GRANT',
  'INTERNAL',
  'UNAVAILABLE',
  /** Nothing configured (no domain provider, no instance-wide one). */
  'NO_PROVIDER',
  /** The chat's chosen model is offered by no configured provider (any more). */
  'MODEL_UNAVAILABLE',
  /** The domain's model access rules close the model to the caller (docs/ARCHITECTURE.md#model-access). */
  'MODEL_NOT_ALLOWED',
  /** The provider refused or failed (bad key, rate limit, outage, blocked URL). */
  'PROVIDER_ERROR',
  /** The provider sent nothing for too long (PROVIDER_FIRST_BYTE_TIMEOUT_MS, PROVIDER_IDLE_TIMEOUT_MS). */
  'PROVIDER_TIMEOUT',
  /** The user already has the maximum number of answers generating. */
  'TOO_MANY_GENERATIONS',
  /** A websocket frame that is not JSON or not a known frame. */
  'BAD_FRAME',
  /** An embedded chat asked for from a site its virtual account does not allow (docs/ARCHITECTURE.md#embed-contract). */
  'ORIGIN_NOT_ALLOWED',
  /** A signed visitor whose signature is wrong or outside its 10-minute window. */
  'INVALID_VISITOR_SIGNATURE',
  /** The file store (S3 or the data directory) cannot be reached: nothing was stored, try again. */
  'STORAGE_UNAVAILABLE',
  /** A budget that covers the caller has no room for this call until it resets (`details.resetsAt`). */
  'BUDGET_EXCEEDED',
  /** A money budget covers the caller and the model has no price: refused, never counted as free. */
  'PRICE_MISSING',
  /** The domain's PII filter blocks what was sent (`details.kinds`: the kinds found, never the text). */
  'PII_BLOCKED',
  /** The person is under legal hold: nothing of theirs may be deleted until it is lifted. */
  'LEGAL_HOLD',
] as const;
export const ErrorCodeSchema = z.enum(ErrorCodes);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorStatus: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  QUOTA_EXCEEDED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  DOMAIN_NOT_FOUND: 404,
  DEPARTMENT_NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INVALID_GRANT: 400,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  // A state of the domain's configuration, not of the request: an Admin (or another model) fixes it.
  NO_PROVIDER: 409,
  MODEL_UNAVAILABLE: 409,
  MODEL_NOT_ALLOWED: 403,
  PROVIDER_ERROR: 502,
  PROVIDER_TIMEOUT: 504,
  TOO_MANY_GENERATIONS: 429,
  BAD_FRAME: 400,
  ORIGIN_NOT_ALLOWED: 403,
  INVALID_VISITOR_SIGNATURE: 401,
  STORAGE_UNAVAILABLE: 503,
  BUDGET_EXCEEDED: 429,
  PRICE_MISSING: 409,
  PII_BLOCKED: 422,
  LEGAL_HOLD: 409,
};

export const ErrorBodySchema = z.object({
  error: z.object({
    status: z.number().int(),
    code: ErrorCodeSchema,
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
