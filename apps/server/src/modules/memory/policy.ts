import { managesMemory } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/**
 * Who may do what to memory (rules in packages/contracts/src/policies.ts). A person's own memories
 * need no rule: every store function is scoped to the signed-in owner, and only `user` callers
 * reach them (visitors and API keys never do).
 */
export const memoryPolicy = definePolicy({
  /** Whether a domain has memory on. */
  manage: (caller, domainId: string) => managesMemory(actor(caller), domainId),
});

export const { authorize } = memoryPolicy;
