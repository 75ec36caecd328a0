import { defineModule } from '../../lib/module.ts';
import { type CompletionsService, completionsService } from './completions.ts';
import { mcpRoutes } from './mcp-server.ts';
import { openAiRoutes } from './openai-routes.ts';
import { apiKeysRoutes } from './routes.ts';
import { type ApiKeysService, apiKeysService } from './service.ts';

export type { ApiKeysService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    /** Personal API keys; the `apiKey` caller kind (docs/ARCHITECTURE.md#callers). */
    apiKeys: ApiKeysService;
    /** The OpenAI-compatible API's model calls (through `agents`, where this process hosts them). */
    completions: CompletionsService;
  }
}

/** Personal API keys and the OpenAI-compatible API (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api). */
export const apiKeysModule = defineModule({
  name: 'apikeys',
  hostedBy: 'accounts',
  services: (ctx) => ({ apiKeys: apiKeysService(ctx), completions: completionsService(ctx) }),
  close: (s) => s.apiKeys?.close(),
  callers: { apiKey: (ctx) => ctx.services.apiKeys.resolver },
  routes: [
    { plugin: apiKeysRoutes, prefix: '/api/v1' },
    // Model calls run where the agents are hosted; the OpenAI-compatible API makes them there.
    { plugin: openAiRoutes, prefix: '/v1', hostedBy: ['agents'] },
    // Assistente as an MCP server for programs holding a key: its tools call models too.
    { plugin: mcpRoutes, prefix: '/mcp', hostedBy: ['agents'] },
  ],
});
