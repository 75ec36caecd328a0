import { defineModule } from '../../lib/module.ts';
import { santitosRoutes } from './routes.ts';
import { type SantitosService, santitosService } from './service.ts';

export type { SantitoRow } from './dto.ts';
export { santitoNotAvailable } from './errors.ts';
export type { SantitosService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    santitos: SantitosService;
  }
}

/** Santitos: the domain's configured assistants (the `agents` table). */
export const santitosModule = defineModule({
  name: 'santitos',
  hostedBy: 'accounts',
  services: (ctx) => ({ santitos: santitosService(ctx) }),
  routes: [{ plugin: santitosRoutes, prefix: '/api/v1/agent' }],
});
