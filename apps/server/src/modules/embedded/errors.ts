import { AppError, unauthenticated } from '../../lib/errors.ts';

/** Missing, of another domain, or (for visitors) paused: all look the same. */
export const virtualAccountNotFound = () => new AppError('NOT_FOUND', 'Embed not found');
export const originNotAllowed = () =>
  new AppError('ORIGIN_NOT_ALLOWED', 'This site is not allowed to show this chat');
export const invalidVisitorSignature = (why: string) => new AppError('INVALID_VISITOR_SIGNATURE', why);

export const anonymousVisitorsOnly = () =>
  new AppError('VALIDATION_FAILED', 'visitor: this chat takes anonymous visitors only');
export const visitorBlocked = () => new AppError('FORBIDDEN', 'This visitor is blocked');
/** A visitor past an embed's limit; `window` tells the page whether waiting a minute helps. */
export const visitorRateLimited = (message: string, window: 'day' | 'minute') =>
  new AppError('RATE_LIMITED', message, { window });
/** The embed a visitor's token names can no longer be used, or its user is gone. */
export const embedNoLongerAvailable = () => unauthenticated('This chat is no longer available');
export const visitorSessionEnded = () => unauthenticated('Your session has ended; reload the page');
