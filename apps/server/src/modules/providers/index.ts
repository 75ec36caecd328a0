import { defineModule } from '../../lib/module.ts';
import { providersRoutes } from './routes.ts';
import { createProvidersService, type ProvidersService } from './service.ts';

export { NO_PROVIDER_MESSAGE } from './errors.ts';
export type { EmbeddingTarget, ProvidersService, ResolvedModel } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    providers: ProvidersService;
  }
}

/** Model providers and each domain's AI settings (docs/ARCHITECTURE.md#model-providers). */
export const providersModule = defineModule({
  name: 'providers',
  hostedBy: 'agents',
  services: (ctx) => ({ providers: createProvidersService(ctx) }),
  close: (s) => s.providers?.close(),
  // Both the chats screens and the agents' model calls need them: hosted beside either.
  routes: [{ plugin: providersRoutes, prefix: '/api/v1', hostedBy: ['agents', 'chats'] }],
});
