import { defineModule } from '../../lib/module.ts';
import { userResolver } from '../../plugins/auth.ts';
import { CallerStates } from './caller-state.ts';
import { type OrganisationService, organisationService } from './organisation.ts';
import { accountsRoutes } from './routes.ts';
import { type AccountsService, accountsService } from './service.ts';

export { existingActingDomain } from './acting-domain.ts';
export type { OrganisationService } from './organisation.ts';
export { type OwnAccountService, ownAccountService } from './own-account.ts';
export type { AccountsService } from './service.ts';
export { deleteVisitorUsers, findDomainById, findVisitorUser, storeVisitorUser } from './visitor-rows.ts';

declare module '../../context.ts' {
  interface Services {
    /** The accounts module's cached "who is this identity?" (users, domains), dropped over the bus. */
    callerStates: CallerStates;
    accounts: AccountsService;
    organisation: OrganisationService;
  }
}

/** Users, domains and departments; the `user` caller kind (docs/ARCHITECTURE.md#server-modules). */
export const accountsModule = defineModule({
  name: 'accounts',
  hostedBy: 'accounts',
  services: (ctx) => ({
    // First: its bus subscription must drop an account's state before anyone re-checks it.
    callerStates: new CallerStates(ctx),
    accounts: accountsService(ctx),
    organisation: organisationService(ctx),
  }),
  close: (s) => s.callerStates?.close(),
  callers: { user: userResolver },
  routes: [{ plugin: accountsRoutes, prefix: '/api/v1' }],
});
