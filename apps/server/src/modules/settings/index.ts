export { settingsRoutes } from './routes.ts';
export { type SettingsService, settingsService } from './service.ts';
