import { type PromptScope, type User, writesPromptScope } from '@assistente/contracts';

export const PROMPT_SCOPES: readonly PromptScope[] = ['private', 'department', 'domain'];

/**
 * The scopes a person may give a prompt they write (the contracts' rule: their own always, their
 * department's from Editor up, the whole domain's from Admin up), a department one only when they
 * have a department. Only hides choices: the server decides, and its refusal is shown as it comes.
 */
export function writableScopes(user: Pick<User, 'role' | 'department'>): PromptScope[] {
  return PROMPT_SCOPES.filter(
    (scope) => writesPromptScope(user, scope) && (scope !== 'department' || user.department !== ''),
  );
}

/** A scope's badge colour, the same in the settings list and the composer's picker. */
export const SCOPE_COLORS: Record<PromptScope, string> = {
  private: 'neutral',
  department: 'secondary',
  domain: 'accent',
};
