import {
  editsPrompt,
  movesPrompt,
  type PromptActor,
  type PromptRef,
  type PromptScope,
  seesPrompt,
  writesPromptScope,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** The person as the prompt rules see them: their department counts. */
export function promptActor(caller: UserCaller): PromptActor {
  return { ...actor(caller), department: caller.user.departmentId };
}

/**
 * Who may do what to prompts of the library (rules in packages/contracts/src/policies.ts). People
 * only: the routes admit no visitor or API key, and these rules read a person's department.
 */
export const promptsPolicy = definePolicy({
  see: (caller, prompt: PromptRef) => caller.kind === 'user' && seesPrompt(promptActor(caller), prompt),
  create: (caller, scope: PromptScope) => caller.kind === 'user' && writesPromptScope(caller, scope),
  edit: (caller, prompt: PromptRef) => caller.kind === 'user' && editsPrompt(promptActor(caller), prompt),
  move: (caller, m: { prompt: PromptRef; scope: PromptScope }) =>
    caller.kind === 'user' && movesPrompt(promptActor(caller), m.prompt, m.scope),
});

export const { authorize, can } = promptsPolicy;
