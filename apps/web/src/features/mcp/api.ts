import {
  type McpServer,
  type McpServerCreate,
  McpServerSchema,
  type McpServerUpdate,
  type ToolInfo,
  ToolListSchema,
  type ToolPolicy,
  ToolPolicySchema,
  type ToolPolicyUpdate,
} from '@assistente/contracts';
import type { ApiClient } from '../../lib/http/client.ts';
import { arrayOf, done, parsed } from '../../lib/http/schemas.ts';

const byId = (id: string) => ({ params: { path: { id } } });

/** A domain's MCP servers (Admins). */
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
  };
}

/** The tools a santito may be given: those of the enabled servers the caller sees (any author). */
export function createToolsApi(client: ApiClient) {
  return {
    list: async (): Promise<ToolInfo[]> =>
      (await parsed(ToolListSchema, client.GET('/api/v1/agent/tools'))).tools,
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
