import { z } from 'zod';

/** The closed set of error codes every service but identity answers with. */
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

/**
 * Error codes of `error` frames: the API's codes plus the agents' own. The web translates by code:
 * `NO_PROVIDER` → "no AI provider is configured; an Admin can add one in Settings → AI models".
 */
export const WsErrorCodes = [
  ...ErrorCodes,
  /** Nothing configured (no domain provider, no instance-wide one). */
  'NO_PROVIDER',
  /** The chat's chosen model is offered by no configured provider (any more). */
  'MODEL_UNAVAILABLE',
  /** The provider refused or failed (bad key, rate limit, outage, blocked URL). */
  'PROVIDER_ERROR',
  /** The provider sent nothing for too long (PROVIDER_FIRST_BYTE_TIMEOUT_MS, PROVIDER_IDLE_TIMEOUT_MS). */
  'PROVIDER_TIMEOUT',
  /** The user already has the maximum number of answers generating. */
  'TOO_MANY_GENERATIONS',
  /** A frame that is not JSON or not a known frame. */
  'BAD_FRAME',
] as const;
export const WsErrorCodeSchema = z.enum(WsErrorCodes);
export type WsErrorCode = z.infer<typeof WsErrorCodeSchema>;
