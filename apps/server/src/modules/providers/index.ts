export { NO_PROVIDER_MESSAGE } from './errors.ts';
export { providersRoutes } from './routes.ts';
export {
  createProvidersService,
  type EmbeddingTarget,
  type ProvidersService,
  type ResolvedModel,
} from './service.ts';
