import { AppError } from '../../lib/errors.ts';

/** Missing, of another domain, or (for visitors) paused: all look the same. */
export const virtualAccountNotFound = () => new AppError('NOT_FOUND', 'Embed not found');
export const originNotAllowed = () =>
  new AppError('ORIGIN_NOT_ALLOWED', 'This site is not allowed to show this chat');
export const invalidVisitorSignature = (why: string) => new AppError('INVALID_VISITOR_SIGNATURE', why);
