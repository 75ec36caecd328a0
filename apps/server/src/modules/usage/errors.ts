import type { BudgetExceededDetails } from '@assistente/contracts';
import { AppError } from '../../lib/errors.ts';

/** A budget that covers the caller has no room for the call's worst case until `resetsAt`. */
export const budgetExceeded = (details: BudgetExceededDetails) =>
  new AppError(
    'BUDGET_EXCEEDED',
    `The ${details.scope}'s usage budget is used up until ${details.resetsAt}.`,
    details,
  );

/** A money budget covers the caller and `model` has no price: refused, never counted free. */
export const priceMissing = (model: string) =>
  new AppError('PRICE_MISSING', `The model ${model} has no price, and a money budget applies.`, { model });

export const budgetNotFound = () => new AppError('NOT_FOUND', 'No such budget.');

/** The budget's department or person is not one of its domain's. */
export const budgetScopeMissing = (kind: 'user' | 'department') =>
  kind === 'user'
    ? new AppError('USER_NOT_FOUND', 'No such person in this organisation.', { field: 'scope.userId' })
    : new AppError('DEPARTMENT_NOT_FOUND', 'No such department in this organisation.', {
        field: 'scope.departmentId',
      });

/** One budget per scope and period: change the one that is there. */
export const budgetTaken = () =>
  new AppError('CONFLICT', 'This scope already has a budget for that period; change it instead.');
