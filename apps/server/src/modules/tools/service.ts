import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import * as catalogue from './catalogue.ts';
import * as servers from './servers.ts';
import * as state from './state.ts';
import * as policy from './tool-policy.ts';

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
    connect: servers.connect,
    disconnect: servers.disconnect,
    finishConnect: servers.finishConnect,
    getPolicy: policy.getPolicy,
    putPolicy: policy.putPolicy,
    listTools: catalogue.listTools,
    unknownRefs: catalogue.unknownRefs,
    answerTools: catalogue.answerTools,
    runTool: catalogue.runTool,
    auditCall: catalogue.auditCall,
    /** MCP connections open on this process (for the bench). */
    openConnections: (s: state.ToolsState) => s.connections.size,
    close: state.close,
  });
}

export type ToolsService = ReturnType<typeof createToolsService>;
