import { defineModule } from '../../lib/module.ts';
import { exportRoutes } from './export-routes.ts';
import { type PersonalDataService, personalDataService } from './personal-data-service.ts';
import { piiSettingsRoutes } from './pii-routes.ts';
import { type PiiService, piiService } from './pii-service.ts';
import { RETENTION_EVERY_MS, RETENTION_JOB } from './retention.ts';
import { jobsRoutes, myRetentionRoutes, retentionSettingsRoutes } from './retention-routes.ts';
import { type RetentionService, retentionService } from './retention-service.ts';

export type { PiiService } from './pii-service.ts';

declare module '../../context.ts' {
  interface Services {
    /** Each domain's PII filter, applied at every entry point (docs/ARCHITECTURE.md#pii-filter). */
    pii: PiiService;
    /** Exports of a person's data and its erasure (docs/ARCHITECTURE.md#export-and-erasure). */
    personalData: PersonalDataService;
    /** Each domain's retention rule and its daily run (docs/ARCHITECTURE.md#retention). */
    retention: RetentionService;
  }
}

/**
 * Governance (docs/ARCHITECTURE.md#governance): each domain's PII filter and retention rule, the
 * retention job, exports. Listed after the modules whose data it deletes and exports, whose
 * services it calls.
 */
export const governanceModule = defineModule({
  name: 'governance',
  hostedBy: 'accounts',
  // Built everywhere, listed last: the entry points read `ctx.services.pii` when a message arrives.
  services: (ctx) => ({
    pii: piiService(ctx),
    personalData: personalDataService(ctx),
    retention: retentionService(ctx),
  }),
  close: (s) => s.pii?.close(),
  routes: [
    { plugin: piiSettingsRoutes, prefix: '/api/v1/settings/pii' },
    { plugin: exportRoutes, prefix: '/api/v1' },
    { plugin: retentionSettingsRoutes, prefix: '/api/v1/settings/retention' },
    { plugin: myRetentionRoutes, prefix: '/api/v1/me/retention' },
    { plugin: jobsRoutes, prefix: '/api/v1/jobs' },
  ],
  jobs: [
    {
      name: RETENTION_JOB,
      everyMs: RETENTION_EVERY_MS,
      run: (ctx) => ctx.services.retention.run(),
    },
  ],
});
