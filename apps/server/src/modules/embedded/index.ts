export { virtualAccountRoutes, visitorRoutes } from './routes.ts';
export {
  VIRTUAL_ACCOUNT_CHANGED,
  type VirtualAccountsService,
  virtualAccountsService,
} from './service.ts';
export { parseVisitorUid } from './visitor-ids.ts';
export { type VisitorsService, visitorsService } from './visitors.ts';
