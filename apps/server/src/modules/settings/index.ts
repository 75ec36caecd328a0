import { defineModule } from '../../lib/module.ts';
import { settingsRoutes } from './routes.ts';
import { type SettingsService, settingsService } from './service.ts';

export type { SettingsService } from './service.ts';

declare module '../../context.ts' {
  interface Services {
    settings: SettingsService;
  }
}

/** Settings read and change accounts' data through accounts: hosted beside it, not inside it. */
export const settingsModule = defineModule({
  name: 'settings',
  hostedBy: 'accounts',
  services: (ctx) => ({ settings: settingsService(ctx) }),
  routes: [{ plugin: settingsRoutes, prefix: '/api/v1/settings' }],
});
