import { AppError } from '../../lib/errors.ts';

/** An acceptance of terms that changed after the page showed them: the client reads `currentVersion`. */
export const eulaChanged = (currentVersion: string) =>
  new AppError('CONFLICT', 'The terms of use changed meanwhile: read the new version', { currentVersion });
