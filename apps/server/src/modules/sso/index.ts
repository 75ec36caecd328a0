import { defineModule } from '../../lib/module.ts';
import { createSsoFlow, type SsoFlow } from './flow.ts';
import { ssoFlowRoutes } from './flow-routes.ts';
import { ssoAdminRoutes } from './routes.ts';
import { type SsoService, ssoService } from './service.ts';

export type { SsoFlow } from './flow.ts';
export type { SsoService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    /** Single sign-on providers (docs/ARCHITECTURE.md#single-sign-on), and the OpenID Connect flow that uses them. */
    sso: SsoService;
    ssoFlow: SsoFlow;
  }
}

/** Single sign-on (docs/ARCHITECTURE.md#single-sign-on). */
export const ssoModule = defineModule({
  name: 'sso',
  hostedBy: 'accounts',
  services: (ctx) => {
    const sso = ssoService(ctx);
    return { sso, ssoFlow: createSsoFlow(ctx, sso) };
  },
  close: (s) => s.ssoFlow?.close(),
  routes: [
    { plugin: ssoAdminRoutes, prefix: '/api/v1/integration/sso' },
    // The browser flow ends in an identity session: hosted with the identity service.
    { plugin: ssoFlowRoutes, hostedBy: ['identity'] },
  ],
});
