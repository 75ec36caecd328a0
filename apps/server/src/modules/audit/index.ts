import { defineModule } from '../../lib/module.ts';
import { auditService } from './service.ts';

export { auditMeta, auditRoutes } from './routes.ts';
export {
  type AuditMeta,
  type AuditRecord,
  auditedTransaction,
  changedFields,
  recordAudit,
  redactSecrets,
} from './store.ts';

declare module '../../context.ts' {
  interface Services {
    audit: ReturnType<typeof auditService>;
  }
}

/** The audit log. Its route is mounted by the accounts module, inside its own (accounts/routes.ts). */
export const auditModule = defineModule({
  name: 'audit',
  hostedBy: 'accounts',
  services: (ctx) => ({ audit: auditService(ctx) }),
});
