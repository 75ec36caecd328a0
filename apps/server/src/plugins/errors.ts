import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { AppError } from '../lib/errors.ts';

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
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('BAD_REQUEST', 'Request body is not valid JSON');
    case 'FST_ERR_VALIDATION':
      return new AppError('VALIDATION_FAILED', fe.message ?? 'Invalid request');
  }
  if (fe.statusCode === 429) return new AppError('RATE_LIMITED', 'Too many requests, try again later');
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    if (fe.statusCode === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type');
    return new AppError('BAD_REQUEST', fe.message ?? 'Bad request');
  }
  return new AppError('INTERNAL', 'Internal server error');
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const appErr = toAppError(err);
    if (appErr.status >= 500) request.log.error({ err }, 'request failed');
    reply.status(appErr.status).send(appErr.toBody());
  });
}
