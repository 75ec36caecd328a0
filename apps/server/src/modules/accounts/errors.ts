import { AppError, invalidField } from '../../lib/errors.ts';

/** The same answer for "missing" and "not yours": existence is never revealed. */
export const userNotFound = () => new AppError('USER_NOT_FOUND', 'User not found');
export const domainNotFound = () => new AppError('DOMAIN_NOT_FOUND', 'Domain not found');
export const departmentNotFound = () => new AppError('DEPARTMENT_NOT_FOUND', 'Department not found');
/** Deleting a person under legal hold (docs/ARCHITECTURE.md#export-and-erasure). */
export const underLegalHold = () =>
  new AppError('LEGAL_HOLD', 'This person is under legal hold: nothing of theirs can be deleted');

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why a signed-in account is refused before any route runs (docs/ARCHITECTURE.md#callers). */
export const noUserRecord = () => new AppError('FORBIDDEN', 'There is no user record for this account');
export const userDeactivated = () => new AppError('FORBIDDEN', 'This user is deactivated');
export const domainDeactivated = () => new AppError('FORBIDDEN', 'This organisation is deactivated');

export const domainExists = (domain: string) =>
  new AppError('CONFLICT', `The domain ${domain} already exists`);
export const domainHasUsers = (users: number) =>
  new AppError(
    'CONFLICT',
    `The domain still has ${plural(users, 'user', 'users')}: delete or move them first`,
    {
      users,
    },
  );
export const domainStillReferenced = () =>
  new AppError('CONFLICT', 'The domain still has data that refers to it: remove it first');
export const departmentNameTaken = (displayName: string) =>
  new AppError('CONFLICT', `There is already a department named “${displayName}”`);
export const departmentHasUsers = (displayName: string, users: number) =>
  new AppError(
    'CONFLICT',
    `The department “${displayName}” still has ${plural(users, 'user', 'users')}: move them to another department first`,
    { users },
  );
export const noActiveDepartmentIn = (domainId: string) =>
  new AppError('VALIDATION_FAILED', `department: No active department with this id in ${domainId}`, [
    { path: 'department', message: 'Department not found in the user’s domain' },
  ]);

export const invalidEmailAddress = (raw: string) =>
  new AppError('VALIDATION_FAILED', `Invalid email address: ${raw}`);
export const invalidDomainName = (domain: string) =>
  new AppError('VALIDATION_FAILED', `Invalid domain: ${domain}`);
export const nameTooLong = () => new AppError('VALIDATION_FAILED', 'The name is longer than 120 characters');
export const userEmailExists = (email: string) => new AppError('CONFLICT', `User ${email} already exists`);
export const domainNotCreated = (domainId: string) =>
  new AppError('INTERNAL', `Could not create domain ${domainId}`);
export const departmentNotCreated = () => new AppError('INTERNAL', 'Could not create the department');

export const lastSuperAdmin = () =>
  new AppError('CONFLICT', 'This is the last active SuperAdmin: promote another user first');
export const emailTaken = () => new AppError('CONFLICT', 'A user with this email already exists');
export const reactivateFirst = () =>
  new AppError('CONFLICT', 'This user is deactivated: reactivate them first');
export const passwordAlreadySet = () =>
  new AppError(
    'CONFLICT',
    'This user has already set a password; they can use “Forgot password” to choose a new one',
  );
export const invitationNotMailed = () =>
  new AppError('UNAVAILABLE', 'The invitation could not be mailed; try again later');
export const idMismatch = () => new AppError('BAD_REQUEST', '_id does not match the user in the path');
export const eulaClearOnlyByAccepting = () =>
  new AppError('VALIDATION_FAILED', 'eula: pendingRevision can only be cleared by accepting', [
    { path: 'eula.pendingRevision', message: 'Accept the terms to clear pendingRevision' },
  ]);
/** A body's `domain` or `department` naming none the caller may use: a 400 on that field. */
export const unknownDomainField = () => invalidField('domain', 'Domain not found');
export const noActiveDepartment = () =>
  invalidField('department', 'No active department with this id in the domain');
