export {
  describeProviderError,
  ModelUnavailableError,
  NO_PROVIDER_MESSAGE,
  NoProviderError,
} from './errors.ts';
export { providersRoutes } from './routes.ts';
export { type ProvidersService, providersService, type ResolvedModel } from './service.ts';
