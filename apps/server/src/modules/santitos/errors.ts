import { AppError, invalidField } from '../../lib/errors.ts';

/** Missing, invisible to the caller, or the caller's domain is not premium: all look the same. */
export const santitoNotFound = () => new AppError('NOT_FOUND', 'Santito not found');
/** A chat's `agentId` naming a santito the caller cannot use. */
export const santitoNotAvailable = () => invalidField('agentId', 'No such santito available to you');
