import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import * as servers from './servers.ts';
import * as state from './state.ts';

/**
 * The tools service (docs/ARCHITECTURE.md#mcp-servers), built once per app. It only names the
 * operations (docs/ARCHITECTURE.md#service-style): servers.ts over the shared state of state.ts.
 */
export function createToolsService(ctx: AppContext) {
  return withState(state.createToolsState(ctx), {
    listServers: servers.list,
    getServer: servers.get,
    createServer: servers.create,
    updateServer: servers.update,
    removeServer: servers.remove,
    refreshServer: servers.refresh,
    close: state.close,
  });
}

export type ToolsService = ReturnType<typeof createToolsService>;
