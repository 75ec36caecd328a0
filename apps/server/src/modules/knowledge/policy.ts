import { attachesKnowledge, managesKnowledge } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** Who may do what to knowledge sources (rules in packages/contracts/src/policies.ts). */
const knowledgePolicy = definePolicy({
  /** A domain's sources, their documents and syncs. */
  manage: (caller, domainId: string) => managesKnowledge(actor(caller), domainId),
  /** Listing the own domain's sources to attach them to a santito. */
  attach: (caller, _: null) => attachesKnowledge(actor(caller)),
});

export const { can, authorize } = knowledgePolicy;
