import { createHash } from 'node:crypto';
import {
  BuiltinToolNames,
  type ToolDecision,
  type ToolPolicy,
  type ToolPolicyUpdate,
  type ToolRule,
  type WebSearchInput,
  type WebSearchSettings,
} from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type StoredWebSearch, toolPolicies } from '../../db/schema/index.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { assertFieldUrlAllowed } from '../../lib/ssrf.ts';
import { type AuditMeta, auditedTransaction, changedFields } from '../audit/index.ts';
import { adminDomain, type ToolsState } from './state.ts';

/*
 * A domain's tool policy (docs/ARCHITECTURE.md#tool-policy): rules with globs, deny wins; with no
 * matching rule an MCP tool asks and a read-only built-in runs.
 */

/** A domain's stored policy, as the tools read it. */
export interface StoredPolicy {
  rules: ToolRule[];
  userServers: boolean;
  webSearch: StoredWebSearch | null;
  defaultTools: string[];
}

const DEFAULT_POLICY: StoredPolicy = { rules: [], userServers: false, webSearch: null, defaultTools: [] };

/** The binding of a domain's sealed search key: unsealed only for that domain's searches. */
export const webSearchKeyBinding = (domainId: string) => `${domainId}:web-search`;

const shownSearch = (w: StoredWebSearch | null): WebSearchSettings | null =>
  w ? { provider: w.provider, url: w.url, hasApiKey: w.apiKeyEnc !== null } : null;

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
export async function policyOf(db: Db, domainId: string): Promise<StoredPolicy> {
  const [row] = await db.select().from(toolPolicies).where(eq(toolPolicies.domainId, domainId)).limit(1);
  return row
    ? {
        rules: row.rules,
        userServers: row.userServers,
        webSearch: row.webSearch,
        defaultTools: row.defaultTools,
      }
    : DEFAULT_POLICY;
}

/** GET /api/v1/settings/tools */
export async function getPolicy(s: ToolsState, caller: UserCaller, domain?: string): Promise<ToolPolicy> {
  const domainId = await adminDomain(s, caller, domain);
  return shownPolicy(domainId, await policyOf(s.ctx.db, domainId));
}

const shownPolicy = (domainId: string, p: StoredPolicy): ToolPolicy => ({
  domain: domainId,
  rules: p.rules,
  userServers: p.userServers,
  webSearch: shownSearch(p.webSearch),
  defaultTools: p.defaultTools,
});

/**
 * The default tools to store: each a built-in or a tool of one of the domain's own servers (not a
 * person's private one); 400 naming the first that is neither.
 */
async function defaultToolsToStore(
  s: ToolsState,
  domainId: string,
  refs: readonly string[],
): Promise<string[]> {
  const unique = [...new Set(refs)];
  const servers = new Set((await s.store.list(domainId)).filter((r) => r.ownerId === null).map((r) => r.id));
  const unknown = unique.find((ref) => {
    if (BuiltinToolNames.some((n) => ref === `builtin:${n}`)) return false;
    const m = /^mcp:([^:]+):[^:\s]+$/.exec(ref);
    return !m?.[1] || !servers.has(m[1]);
  });
  if (unknown) {
    throw new AppError('VALIDATION_FAILED', `defaultTools: ${unknown} is not a tool of this organisation`, [
      { path: 'defaultTools', message: `Unknown tool ${unknown}` },
    ]);
  }
  return unique;
}

/**
 * The web search to store: its URL through the SSRF rule, a new key sealed, the stored key kept
 * when none is given for the same provider (and required when there is none to keep).
 */
async function searchToStore(
  s: ToolsState,
  domainId: string,
  input: WebSearchInput | null,
  before: StoredWebSearch | null,
): Promise<StoredWebSearch | null> {
  if (!input) return null;
  if (input.provider === 'searxng') {
    await assertFieldUrlAllowed('webSearch.url', input.url, s.ctx.config.PROVIDER_URL_ALLOWLIST);
    return { provider: 'searxng', url: input.url, apiKeyEnc: null };
  }
  if (input.url) await assertFieldUrlAllowed('webSearch.url', input.url, s.ctx.config.PROVIDER_URL_ALLOWLIST);
  const kept = before?.provider === input.provider ? before.apiKeyEnc : null;
  const apiKeyEnc = input.apiKey ? s.box.seal(input.apiKey, webSearchKeyBinding(domainId)) : kept;
  if (!apiKeyEnc) {
    throw new AppError('VALIDATION_FAILED', `webSearch.apiKey: ${input.provider} needs an API key`, [
      { path: 'webSearch.apiKey', message: 'Required' },
    ]);
  }
  return { provider: input.provider, url: input.url ?? null, apiKeyEnc };
}

/** PUT /api/v1/settings/tools: replaces the rules, audited with what changed (never a key). */
export async function putPolicy(
  s: ToolsState,
  caller: UserCaller,
  body: ToolPolicyUpdate,
  meta: AuditMeta,
  domain?: string,
): Promise<ToolPolicy> {
  const domainId = await adminDomain(s, caller, domain);
  const before = await policyOf(s.ctx.db, domainId);
  const webSearch =
    body.webSearch === undefined
      ? before.webSearch
      : await searchToStore(s, domainId, body.webSearch, before.webSearch);
  const defaultTools =
    body.defaultTools === undefined
      ? before.defaultTools
      : await defaultToolsToStore(s, domainId, body.defaultTools);
  const after: StoredPolicy = { rules: body.rules, userServers: body.userServers, webSearch, defaultTools };
  // The audit tells a key changed, never what it is.
  const audited = (p: StoredPolicy) => ({
    rules: p.rules,
    userServers: p.userServers,
    defaultTools: p.defaultTools,
    webSearch: p.webSearch
      ? {
          provider: p.webSearch.provider,
          url: p.webSearch.url,
          key: p.webSearch.apiKeyEnc
            ? createHash('sha256').update(p.webSearch.apiKeyEnc).digest('hex').slice(0, 12)
            : null,
        }
      : null,
  });
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
      const diff = changedFields(audited(before), audited(after));
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
  await s.policies.changed(domainId);
  return shownPolicy(domainId, after);
}
