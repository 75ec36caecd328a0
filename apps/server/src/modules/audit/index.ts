export { auditMeta, auditRoutes } from './routes.ts';
export { auditService } from './service.ts';
export {
  type AuditMeta,
  type AuditRecord,
  auditedTransaction,
  changedFields,
  recordAudit,
  redactSecrets,
} from './store.ts';
