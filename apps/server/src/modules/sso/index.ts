export { createSsoFlow, type SsoFlow } from './flow.ts';
export { ssoFlowRoutes } from './flow-routes.ts';
export { ssoAdminRoutes } from './routes.ts';
export { type SsoService, ssoService } from './service.ts';
