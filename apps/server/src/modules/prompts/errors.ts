import { AppError, forbidden, notFound } from '../../lib/errors.ts';

/** A prompt of another domain, one the caller does not see, or none at all: the same answer. */
export const promptNotFound = () => notFound('No such prompt');
export const promptVersionNotFound = (version: number) =>
  notFound(`This prompt has no version ${version} (any more)`);

/** The owner scope already has a prompt with this command: the picker could not tell them apart. */
export const commandTaken = (command: string) =>
  new AppError('CONFLICT', `command: /${command} is already used by another prompt of this scope`, [
    { path: 'command', message: 'already used by another prompt of this scope', code: 'command_taken' },
  ]);

export const mayNotWriteScope = (scope: string) =>
  forbidden(
    scope === 'department'
      ? 'Only Editors and above write prompts for their department'
      : scope === 'domain'
        ? 'Only Admins write prompts for the whole domain'
        : 'Only its author makes a prompt private',
  );
export const mayNotEditPrompt = () => forbidden('You may use this prompt but not change it');
