export { existingActingDomain } from './acting-domain.ts';
export { type OrganisationService, organisationService } from './organisation.ts';
export { type OwnAccountService, ownAccountService } from './own-account.ts';
export { accountsRoutes } from './routes.ts';
export { type AccountsService, accountsService } from './service.ts';
