export { agentsRoutes } from './routes.ts';
export { type AgentsService, createAgentsService } from './service.ts';
