import { defineModule } from '../../lib/module.ts';
import { virtualAccountRoutes, visitorRoutes } from './routes.ts';
import { type VirtualAccountsService, virtualAccountsService } from './service.ts';
import { type VisitorsService, visitorsService } from './visitors.ts';

export { VIRTUAL_ACCOUNT_CHANGED, type VirtualAccountsService } from './service.ts';
export { parseVisitorUid } from './visitor-ids.ts';
export type { VisitorsService } from './visitors.ts';

declare module '../../context.ts' {
  interface Services {
    /** Embeds (docs/ARCHITECTURE.md#embedded-chat): Admin management, and the visitors' side of them. */
    virtualAccounts: VirtualAccountsService;
    /** Embeds' visitors: their sessions and the `visitor` caller kind. */
    visitors: VisitorsService;
  }
}

/** Embeds and their visitors; the `visitor` caller kind (docs/ARCHITECTURE.md#embedded-chat). */
export const embeddedModule = defineModule({
  name: 'embedded',
  hostedBy: 'accounts',
  services: (ctx) => ({ virtualAccounts: virtualAccountsService(ctx), visitors: visitorsService(ctx) }),
  close: (s) => s.visitors?.close(),
  callers: { visitor: (ctx) => ctx.services.visitors.resolver },
  routes: [
    { plugin: virtualAccountRoutes, prefix: '/api/v1/virtual_account' },
    // Visitors reach only the chats manager's side of the product: hosted beside it.
    { plugin: visitorRoutes, prefix: '/api/v1/embedded', hostedBy: ['chats'] },
  ],
});
