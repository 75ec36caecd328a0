import { managesBudgets, readsPrices, readsUsage, setsPrices } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** Who may do what to usage, prices and budgets (rules in packages/contracts/src/policies.ts). */
const usagePolicy = definePolicy({
  /** See, set and remove a domain's budgets. */
  manageBudgets: (caller, domainId: string) => managesBudgets(actor(caller), domainId),
  /** Read a domain's usage reports and export them. */
  readReports: (caller, domainId: string) => readsUsage(actor(caller), domainId),
  /** Read the instance's model prices and their history. */
  readPrices: (caller, _: null) => readsPrices(actor(caller)),
  /** Set a model's price from now on. */
  setPrices: (caller, _: null) => setsPrices(actor(caller)),
});

export const { can, authorize } = usagePolicy;
