import {
  type McpConnect,
  McpConnectSchema,
  type McpServer,
  type McpServerCreate,
  McpServerSchema,
  type McpServerUpdate,
  type ToolList,
  ToolListSchema,
  type ToolPolicy,
  ToolPolicySchema,
  type ToolPolicyUpdate,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { arrayOf, done, parsed } from '../../lib/http/schemas.ts';

const byId = (id: string) => ({ params: { path: { id } } });

/**
 * MCP servers: an Admin's list is the domain's (and their own); anyone else's is their own and the
 * domain's OAuth servers they may connect to.
 */
export function createMcpApi(client: ApiClient) {
  return {
    list: (): Promise<McpServer[]> => parsed(arrayOf(McpServerSchema), client.GET('/api/v1/integration/mcp')),
    create: (body: McpServerCreate): Promise<McpServer> =>
      parsed(McpServerSchema, client.POST('/api/v1/integration/mcp', { body })),
    update: (id: string, body: McpServerUpdate): Promise<McpServer> =>
      parsed(McpServerSchema, client.PUT('/api/v1/integration/mcp/{id}', { ...byId(id), body })),
    refresh: (id: string): Promise<McpServer> =>
      parsed(McpServerSchema, client.POST('/api/v1/integration/mcp/{id}/refresh', byId(id))),
    remove: (id: string): Promise<void> => done(client.DELETE('/api/v1/integration/mcp/{id}', byId(id))),
    /** Where the caller signs in to an OAuth server (null: connected already). */
    connect: (id: string): Promise<McpConnect> =>
      parsed(McpConnectSchema, client.GET('/api/v1/integration/mcp/{id}/connect', byId(id))),
    disconnect: (id: string): Promise<void> =>
      done(client.DELETE('/api/v1/integration/mcp/{id}/connect', byId(id))),
  };
}

/**
 * The tools a santito may be given (those of the enabled servers the caller sees, any author), and
 * whether the caller may add servers of their own.
 */
export function createToolsApi(client: ApiClient) {
  return {
    get: (): Promise<ToolList> => parsed(ToolListSchema, client.GET('/api/v1/agent/tools')),
  };
}

/** The domain's tool policy (Admins): rules deciding each call, and whether people add their own servers. */
export function createToolPolicyApi(client: ApiClient) {
  return {
    get: (): Promise<ToolPolicy> => parsed(ToolPolicySchema, client.GET('/api/v1/settings/tools')),
    save: (body: ToolPolicyUpdate): Promise<ToolPolicy> =>
      parsed(ToolPolicySchema, client.PUT('/api/v1/settings/tools', { body })),
  };
}
