import { defineModule } from '../../lib/module.ts';
import { codeassistRoutes } from './routes.ts';
import { codeassistService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    codeassist: ReturnType<typeof codeassistService>;
  }
}

/** The editor extension's sign-in (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension). */
export const codeassistModule = defineModule({
  name: 'codeassist',
  hostedBy: 'codeassist',
  services: (ctx) => ({ codeassist: codeassistService(ctx) }),
  routes: [{ plugin: codeassistRoutes, prefix: '/api/v1/user_management' }],
});
