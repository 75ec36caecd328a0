import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { createGuardedHttp } from '../../lib/ssrf.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { McpConnections } from './connections.ts';
import { authorize } from './policy.ts';
import { type McpServersStore, mcpServersStore } from './store.ts';

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
}

export function createToolsState(ctx: AppContext): ToolsState {
  // MCP servers are reached under the same rule as model providers: public, or allowlisted.
  const guard = createGuardedHttp({ allowlist: ctx.config.PROVIDER_URL_ALLOWLIST });
  return {
    ctx,
    store: mcpServersStore(ctx.db),
    box: secretBoxFor(ctx.config),
    guard,
    connections: new McpConnections(guard, ctx.config.MCP_IDLE_MS),
  };
}

/** The domain an Admin acts on: their own, or any for a SuperAdmin (`?domain=`). */
export async function adminDomain(s: ToolsState, caller: UserCaller, requested?: string): Promise<string> {
  authorize(caller, 'manage', caller.domain.id, 'Only Admins manage MCP servers');
  return existingActingDomain(s.ctx.db, caller, requested);
}

export async function close(s: ToolsState): Promise<void> {
  await s.connections.close();
  await s.guard.close();
}
