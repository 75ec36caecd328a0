import { AppError } from '../../lib/errors.ts';

/** OAuth's `invalid_grant`: the code exchange failed, with the reason in the message. */
export const invalidGrant = (message = 'The code is invalid or has expired') =>
  new AppError('INVALID_GRANT', message);
export const redirectNotLoginPage = () =>
  new AppError('BAD_REQUEST', "redirect_uri must be this app's login page");
