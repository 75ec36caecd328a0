export type { SantitoRow } from './dto.ts';
export { santitoNotAvailable } from './errors.ts';
export { santitosRoutes } from './routes.ts';
export { type SantitosService, santitosService } from './service.ts';
