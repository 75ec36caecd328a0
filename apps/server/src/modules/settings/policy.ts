import { managesDomainSettings } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** Who may change what in settings (rules in packages/contracts/src/policies.ts). */
export const settingsPolicy = definePolicy({
  /** A domain's settings (terms-of-use version, …). Everyone manages their own profile. */
  manageDomain: (caller, domainId: string) => managesDomainSettings(actor(caller), domainId),
});

export const { authorize } = settingsPolicy;
