import { z } from 'zod';
import { ErrorCodes } from './values.ts';

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
