export type { SantitoRow } from './dto.ts';
export { santitosRoutes } from './routes.ts';
export { type SantitosService, santitosService } from './service.ts';
