import { AppError } from '../../lib/errors.ts';

/** Missing, invisible to the caller, or the caller's domain is not premium: all look the same. */
export const santitoNotFound = () => new AppError('NOT_FOUND', 'Santito not found');
