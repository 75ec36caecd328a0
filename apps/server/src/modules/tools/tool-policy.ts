import type { ToolDecision, ToolPolicy, ToolPolicyUpdate, ToolRule } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { toolPolicies } from '../../db/schema/index.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { type AuditMeta, auditedTransaction, changedFields } from '../audit/index.ts';
import { adminDomain, type ToolsState } from './state.ts';

/*
 * A domain's tool policy (docs/ARCHITECTURE.md#tool-policy): rules with globs, deny wins; with no
 * matching rule an MCP tool asks and a read-only built-in runs.
 */

const DEFAULT_POLICY = { rules: [] as ToolRule[], userServers: false };

/** A rule's `match` as a regular expression: `*` is any run of characters, the rest literal. */
function globOf(match: string): RegExp {
  const escaped = match.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}

const RANK: Record<ToolDecision, number> = { allow: 0, ask: 1, deny: 2 };

/** What the rules decide for `ref`: the strictest matching rule's decision, else the default. */
export function decide(rules: readonly ToolRule[], ref: string, readOnly: boolean): ToolDecision {
  let found: ToolDecision | undefined;
  for (const rule of rules) {
    if (!globOf(rule.match).test(ref)) continue;
    if (!found || RANK[rule.decision] > RANK[found]) found = rule.decision;
  }
  if (found) return found;
  return ref.startsWith('builtin:') && readOnly ? 'allow' : 'ask';
}

/** The stored policy of a domain, or the defaults. */
export async function policyOf(
  db: Db,
  domainId: string,
): Promise<{ rules: ToolRule[]; userServers: boolean }> {
  const [row] = await db.select().from(toolPolicies).where(eq(toolPolicies.domainId, domainId)).limit(1);
  return row ? { rules: row.rules, userServers: row.userServers } : DEFAULT_POLICY;
}

/** GET /api/v1/settings/tools */
export async function getPolicy(s: ToolsState, caller: UserCaller, domain?: string): Promise<ToolPolicy> {
  const domainId = await adminDomain(s, caller, domain);
  return { domain: domainId, ...(await policyOf(s.ctx.db, domainId)) };
}

/** PUT /api/v1/settings/tools: replaces the rules, audited with what changed. */
export async function putPolicy(
  s: ToolsState,
  caller: UserCaller,
  body: ToolPolicyUpdate,
  meta: AuditMeta,
  domain?: string,
): Promise<ToolPolicy> {
  const domainId = await adminDomain(s, caller, domain);
  const before = await policyOf(s.ctx.db, domainId);
  const after = { rules: body.rules, userServers: body.userServers };
  await auditedTransaction(
    s.ctx.db,
    caller,
    meta,
    (tx) => tx,
    async (tx) => {
      await tx
        .insert(toolPolicies)
        .values({ domainId, ...after })
        .onConflictDoUpdate({ target: toolPolicies.domainId, set: { ...after, updatedAt: new Date() } });
      const diff = changedFields(before, after);
      return {
        result: undefined,
        audit: {
          action: 'tools.policy.update',
          targetType: 'domain',
          targetId: domainId,
          domainId,
          before: diff.before,
          after: diff.after,
        },
      };
    },
  );
  return { domain: domainId, ...after };
}
