import { defineModule } from '../../lib/module.ts';
import { toolListRoutes, toolPolicyRoutes } from './policy-routes.ts';
import { toolsRoutes } from './routes.ts';
import { createToolsService, type ToolsService } from './service.ts';

export type { AnswerTool } from './catalogue.ts';
export type { ToolsService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    /** MCP servers and their tools (docs/ARCHITECTURE.md#mcp-servers). */
    tools: ToolsService;
  }
}

/** Tools santitos can use: MCP servers of a domain (docs/ARCHITECTURE.md#mcp-servers). */
export const toolsModule = defineModule({
  name: 'tools',
  hostedBy: 'agents',
  services: (ctx) => ({ tools: createToolsService(ctx) }),
  close: (s) => s.tools?.close(),
  // Beside the other integrations (knowledge), where a cluster's proxy sends /api/v1/integration.
  routes: [
    { plugin: toolsRoutes, prefix: '/api/v1/integration/mcp', hostedBy: ['accounts'] },
    { plugin: toolPolicyRoutes, prefix: '/api/v1/settings/tools', hostedBy: ['accounts'] },
    { plugin: toolListRoutes, prefix: '/api/v1/agent/tools', hostedBy: ['accounts'] },
  ],
});
