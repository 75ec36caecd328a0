import { readsAudit } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** Who may read the audit log (rules in packages/contracts/src/policies.ts). */
export const auditPolicy = definePolicy({
  /** One domain's entries. */
  read: (caller, domainId: string) => readsAudit(actor(caller), domainId),
});

export const { can, authorize } = auditPolicy;
