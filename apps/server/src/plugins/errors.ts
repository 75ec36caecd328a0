import type { IdentityErrorBody } from '@assistente/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError } from '../lib/errors.ts';

const bodyTooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
const unsupportedContentType = () => new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type');

/** Turns every failure into the contract's error body; nothing internal reaches a client. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) {
    const details = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message, code: i.code }));
    const first = err.issues[0];
    const msg = first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'Invalid request';
    return new AppError('VALIDATION_FAILED', msg, details);
  }
  const fe = err as Partial<FastifyError>;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedContentType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('BAD_REQUEST', 'Request body is not valid JSON');
    // Refused by the router, before any route: the address itself is unusable.
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('BAD_REQUEST', 'A part of the address is too long');
    case 'FST_ERR_BAD_URL':
      return new AppError('BAD_REQUEST', 'The address is not valid');
    case 'FST_ERR_VALIDATION':
      return validationError(err as FastifyError);
  }
  if (fe.statusCode === 429) return new AppError('RATE_LIMITED', 'Too many requests, try again later');
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 413) return bodyTooLarge();
    if (fe.statusCode === 415) return unsupportedContentType();
    return new AppError('BAD_REQUEST', fe.message ?? 'Bad request');
  }
  return new AppError('INTERNAL', 'Internal server error');
}

/**
 * A declared route's refused input, in the words `Schema.parse` used to give: the first issue as
 * `path: message`, every issue in `details`.
 */
function validationError(err: FastifyError): AppError {
  if (!hasZodFastifySchemaValidationErrors(err)) {
    return new AppError('VALIDATION_FAILED', err.message || 'Invalid request');
  }
  const where = err.validationContext ?? 'body';
  const details = err.validation.map((v) => ({
    path: v.instancePath.slice(1).replaceAll('/', '.'),
    message: v.message ?? 'Invalid value',
    code: v.keyword,
    in: where,
  }));
  const first = details[0];
  const msg = first ? `${first.path || where}: ${first.message}` : 'Invalid request';
  return new AppError('VALIDATION_FAILED', msg, details);
}

/**
 * For Fastify's `frameworkErrors` option: errors the router raises before any route or hook (an
 * address it cannot decode, a path parameter over maxParamLength) get the API's error body too.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appErr = toAppError(err);
  // Everything under /identity answers in Identity Toolkit's envelope (docs/ARCHITECTURE.md#error-model), router refusals too.
  if (request.url.startsWith('/identity/')) {
    reply.status(appErr.status).send(identityToolkitBody(appErr.status, appErr.message));
    return;
  }
  reply.status(appErr.status).send(appErr.toBody());
}

/** Identity Toolkit's error envelope, for refusals under /identity that no identity route raised. */
export function identityToolkitBody(status: number, detail: string): IdentityErrorBody {
  const code = status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_ARGUMENT';
  const message = status >= 500 ? code : `${code} : ${detail}`;
  const reason = status >= 500 ? 'backendError' : 'invalid';
  return { error: { code: status, message, errors: [{ message, domain: 'global', reason }] } };
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const appErr = toAppError(err);
    // A 503 is an outage of something outside the product (its file store, say): one warning, no stack.
    if (appErr.status === 503) request.log.warn({ code: appErr.code }, appErr.message);
    else if (appErr.status >= 500) request.log.error({ err }, 'request failed');
    reply.status(appErr.status).send(appErr.toBody());
  });
}
