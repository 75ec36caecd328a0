export { type OrganisationService, organisationService } from './organisation.ts';
export { accountsRoutes } from './routes.ts';
export { type AccountsService, accountsService } from './service.ts';
