import { managesMcpServers } from '@assistente/contracts';
import { actor, definePolicy } from '../../lib/policy.ts';

/** Who may do what to tools and MCP servers (rules in packages/contracts/src/policies.ts). */
export const toolsPolicy = definePolicy({
  /** A domain's MCP servers. */
  manage: (caller, domainId: string) => managesMcpServers(actor(caller), domainId),
});

export const { authorize, can } = toolsPolicy;
