export { codeassistRoutes } from './routes.ts';
export { codeassistService } from './service.ts';
