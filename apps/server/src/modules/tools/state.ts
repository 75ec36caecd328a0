import { type AppContext, Channels } from '../../context.ts';
import type { AuthInvalidateMessage, UserCaller } from '../../lib/caller.ts';
import { type DomainCache, domainCache } from '../../lib/domain-cache.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { createGuardedHttp } from '../../lib/ssrf.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { McpConnections } from './connections.ts';
import { dropInactiveTokens } from './oauth.ts';
import { authorize } from './policy.ts';
import { type McpServersStore, mcpServersStore } from './store.ts';
import { policyOf, type StoredPolicy } from './tool-policy.ts';

/**
 * What every tools operation shares (docs/ARCHITECTURE.md#service-style): built once per app, it
 * owns the guarded HTTP agents every MCP request goes through.
 */
export interface ToolsState {
  ctx: AppContext;
  store: McpServersStore;
  box: SecretBox;
  guard: ReturnType<typeof createGuardedHttp>;
  /** The tool calls' connections, one per user and server. */
  connections: McpConnections;
  /** Each domain's tool policy, read by every answer: cached, dropped on every replica on change. */
  policies: DomainCache<StoredPolicy>;
  /** Stops listening for people who lost access (whose OAuth tokens are dropped). */
  unlisten: () => void;
}

export function createToolsState(ctx: AppContext): ToolsState {
  // MCP servers are reached under the same rule as model providers: public, or allowlisted.
  const guard = createGuardedHttp({ allowlist: ctx.config.PROVIDER_URL_ALLOWLIST });
  const state: ToolsState = {
    ctx,
    store: mcpServersStore(ctx.db),
    box: secretBoxFor(ctx.config),
    guard,
    connections: new McpConnections(guard, ctx.config.MCP_IDLE_MS),
    policies: domainCache({
      bus: ctx.bus,
      log: ctx.log,
      channel: 'tools.policy.changed',
      ttlMs: 30_000,
      load: (domainId) => policyOf(ctx.db, domainId),
    }),
    unlisten: () => {},
  };
  // A person deactivated (or their organisation) keeps no access to their MCP accounts.
  state.unlisten = ctx.bus.subscribe(Channels.authInvalidate, (raw) => {
    const msg = (raw ?? {}) as AuthInvalidateMessage;
    if (!msg.email && !msg.domain) return;
    void dropInactiveTokens(state, msg).catch((err: unknown) =>
      ctx.log.error({ err }, 'tools: dropping the tokens of people who lost access failed'),
    );
  });
  return state;
}

/** The domain an Admin acts on: their own, or any for a SuperAdmin (`?domain=`). */
export async function adminDomain(s: ToolsState, caller: UserCaller, requested?: string): Promise<string> {
  authorize(caller, 'manage', caller.domain.id, 'Only Admins manage MCP servers');
  return existingActingDomain(s.ctx.db, caller, requested);
}

export async function close(s: ToolsState): Promise<void> {
  s.unlisten();
  s.policies.close();
  await s.connections.close();
  await s.guard.close();
}
