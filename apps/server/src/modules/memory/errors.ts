import { MemoryLimits } from '@assistente/contracts';
import { AppError, notFound } from '../../lib/errors.ts';

/** Another person's memory, or none: the same answer (docs/ARCHITECTURE.md#error-model). */
export const memoryNotFound = () => notFound('No such memory');
export const memoryOff = () =>
  new AppError(
    'FORBIDDEN',
    'Memory is off in your organisation: an Admin can turn it on in Settings → Memory.',
  );
export const tooManyMemories = () =>
  new AppError(
    'CONFLICT',
    `You keep at most ${MemoryLimits.perPerson} memories: delete one you no longer need first.`,
  );
