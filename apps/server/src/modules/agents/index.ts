export { agentsRoutes } from './routes.ts';
export { type AgentsService, CONTROL_CHANNEL, createAgentsService } from './service.ts';
