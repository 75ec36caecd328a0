export { codeassistRoutes } from './routes.ts';
