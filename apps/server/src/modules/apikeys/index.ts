export { completionsService } from './completions.ts';
export { openAiRoutes } from './openai-routes.ts';
export { apiKeysRoutes } from './routes.ts';
export { type ApiKeysService, apiKeysService } from './service.ts';
