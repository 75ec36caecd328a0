import { AppError, notFound } from '../../lib/errors.ts';

export const ssoProviderExists = () => new AppError('CONFLICT', 'An SSO provider with this id exists');
/** The sign-in's return address must stay inside the app (no open redirect). */
export const redirectNotAppPath = () =>
  new AppError('VALIDATION_FAILED', 'redirect must be a path of this app');
export const ssoProviderNotFound = () => notFound('SSO provider not found');
