import { managesSso } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** Who may do what to single sign-on providers (rules in packages/contracts/src/policies.ts). */
const ssoPolicy = definePolicy({
  /** Providers serve every domain of the instance, so only SuperAdmins manage them. */
  manage: (caller, _: null) => managesSso(actor(caller)),
});

export const { authorize } = ssoPolicy;
