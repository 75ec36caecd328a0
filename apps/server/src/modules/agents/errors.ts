import { AppError } from '../../lib/errors.ts';

export const tooManySends = (sendsPerMinute: number) =>
  new AppError('RATE_LIMITED', `You can send at most ${sendsPerMinute} messages a minute; wait a moment.`);
export const tooManyGenerations = (maxConcurrent: number) =>
  new AppError(
    'TOO_MANY_GENERATIONS',
    `At most ${maxConcurrent} answers can be generated at once; wait for one to finish or stop it.`,
  );
export const alreadyGenerating = () =>
  new AppError('CONFLICT', 'An answer is already being generated in this chat; stop it first.');

/** Cross-site websocket hijacking: only the app's own pages may open the socket. */
export const socketOriginRefused = () =>
  new AppError('FORBIDDEN', 'This origin may not open the agents websocket');
/** An API key's token never opens the socket: it is for the OpenAI-compatible API. */
export const invalidSocketToken = () => new AppError('UNAUTHENTICATED', 'Invalid token');
export const socketAccountChanged = () =>
  new AppError('UNAUTHENTICATED', 'A socket cannot change accounts; reconnect instead');
export const noAttachments = () => new AppError('FORBIDDEN', 'This chat does not take attachments');
