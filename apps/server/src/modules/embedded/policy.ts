import { managesVirtualAccounts } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** Who may do what to embeds (rules in packages/contracts/src/policies.ts). */
const virtualAccountsPolicy = definePolicy({
  /** A domain's embeds: its Admins, or a SuperAdmin for any domain. */
  manage: (caller, domainId: string) => managesVirtualAccounts(actor(caller), domainId),
});

export const { can, authorize } = virtualAccountsPolicy;
