import type { ErrorCode } from '@assistente/contracts';
import { AppError, notFound } from '../../lib/errors.ts';

export const tooManyKeys = (perUser: number) =>
  new AppError('CONFLICT', `You can hold at most ${perUser} API keys; revoke one you no longer use.`);

/** A model that does not exist for this caller: OpenAI's 404 `model_not_found`. */
export const modelNotFound = (model: string) =>
  new AppError('NOT_FOUND', `The model \`${model}\` does not exist or you do not have access to it.`, {
    param: 'model',
    code: 'model_not_found',
  });

/** A bare model name several providers offer: which one is meant is the client's to say. */
export const ambiguousModel = (model: string, ids: string[]) =>
  new AppError(
    'VALIDATION_FAILED',
    `Several providers offer the model \`${model}\`; name one of them: ${ids.join(', ')}.`,
    { param: 'model', code: 'model_ambiguous' },
  );

export const noModelCalls = () => new AppError('UNAVAILABLE', 'This server does not run model calls');
export const tooManyKeyRequests = (sendsPerMinute: number) =>
  new AppError(
    'RATE_LIMITED',
    `This API key may make at most ${sendsPerMinute} requests a minute; wait a moment.`,
  );
export const tooManyUserGenerations = (maxConcurrent: number) =>
  new AppError(
    'TOO_MANY_GENERATIONS',
    `At most ${maxConcurrent} answers can be generated at once for this user; wait for one to finish.`,
  );

/** A provider's failure, said as the agents say it (their message, PROVIDER_ERROR or a timeout). */
export const providerFailure = (message: string, code: ErrorCode = 'PROVIDER_ERROR') =>
  new AppError(code, message);
export const apiKeyNotFound = () => notFound('No such API key');
