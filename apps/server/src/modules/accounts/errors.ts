import { AppError } from '../../lib/errors.ts';

/** The same answer for "missing" and "not yours": existence is never revealed. */
export const userNotFound = () => new AppError('USER_NOT_FOUND', 'User not found');
export const domainNotFound = () => new AppError('DOMAIN_NOT_FOUND', 'Domain not found');
export const departmentNotFound = () => new AppError('DEPARTMENT_NOT_FOUND', 'Department not found');
