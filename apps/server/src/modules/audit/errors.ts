import { AppError } from '../../lib/errors.ts';

export const fromAfterTo = () => new AppError('VALIDATION_FAILED', 'from must not be after to');
