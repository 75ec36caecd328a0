import { listsDomainApiKeys, managesApiKey } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';
import type { ApiKeyRow } from './store.ts';

/** Who may do what to API keys (rules in packages/contracts/src/policies.ts). */
const apiKeysPolicy = definePolicy({
  /** Revoke (and see) one key: its owner, an Admin of its domain, a SuperAdmin. */
  manage: (caller, row: Pick<ApiKeyRow, 'userId' | 'domainId'>) =>
    managesApiKey(actor(caller), { userId: row.userId, domain: row.domainId }),
  /** List every key of a domain. */
  listDomain: (caller, domainId: string) => listsDomainApiKeys(actor(caller), domainId),
});

export const { can, authorize } = apiKeysPolicy;
