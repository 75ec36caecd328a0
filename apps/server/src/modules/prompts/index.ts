import { defineModule } from '../../lib/module.ts';
import { promptsRoutes } from './routes.ts';
import { type PromptsService, promptsService } from './service.ts';

export type { PromptsService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    /** The prompt library (docs/ARCHITECTURE.md#prompt-library). */
    prompts: PromptsService;
  }
}

/** The prompt library: private, department and domain prompts with versions (docs/ARCHITECTURE.md#prompt-library). */
export const promptsModule = defineModule({
  name: 'prompts',
  hostedBy: 'accounts',
  services: (ctx) => ({ prompts: promptsService(ctx) }),
  routes: [{ plugin: promptsRoutes, prefix: '/api/v1/prompts' }],
});
