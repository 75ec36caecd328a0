import { defineModule } from '../../lib/module.ts';
import { auditRoutes } from './routes.ts';
import { auditService } from './service.ts';

export { auditMeta, auditRoutes } from './routes.ts';
export {
  type AuditMeta,
  type AuditRecord,
  auditedTransaction,
  changedFields,
  recordAudit,
  redactSecrets,
  SYSTEM_ACTOR,
} from './store.ts';

declare module '../../context.ts' {
  interface Services {
    audit: ReturnType<typeof auditService>;
  }
}

/** The audit log: every module records into it; Admins read it at /api/v1/audit. */
export const auditModule = defineModule({
  name: 'audit',
  hostedBy: 'accounts',
  services: (ctx) => ({ audit: auditService(ctx) }),
  routes: [{ plugin: auditRoutes, prefix: '/api/v1' }],
});
