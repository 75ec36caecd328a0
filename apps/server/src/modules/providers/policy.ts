import { managesProviders } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** Who may do what to AI providers (rules in packages/contracts/src/policies.ts). */
export const providersPolicy = definePolicy({
  /** A domain's provider configurations and model settings. */
  manage: (caller, domainId: string) => managesProviders(actor(caller), domainId),
});

export const { authorize } = providersPolicy;
