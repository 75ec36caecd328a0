import {
  type McpServer,
  type McpServerCreate,
  McpServerSchema,
  type McpServerUpdate,
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
