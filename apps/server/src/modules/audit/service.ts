import { type AuditEntry, type AuditQuery, hasRole } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { type Page, parseCursor } from '../../lib/paging.ts';
import type { Caller } from '../../plugins/auth.ts';
import { AUDIT_CURSOR_TAG, type AuditRow, listAudit } from './store.ts';

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    domain: row.domainId,
    actor: { id: row.actorId, email: row.actorEmail },
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    before: row.before ?? null,
    after: row.after ?? null,
    ip: row.ip,
  };
}

export function auditService(ctx: AppContext) {
  return {
    /** Admins read their domain's log; SuperAdmins everything, or one domain with `?domain=`. */
    async list(caller: Caller, query: AuditQuery): Promise<Page<AuditEntry>> {
      if (!hasRole(caller.role, 'Admin')) throw forbidden();
      const from = query.from ? new Date(query.from) : undefined;
      const to = query.to ? new Date(query.to) : undefined;
      if (from && to && from > to) throw new AppError('VALIDATION_FAILED', 'from must not be after to');
      const after = parseCursor(AUDIT_CURSOR_TAG, query.cursor);
      const requested = caller.role === 'SuperAdmin' && query.domain ? query.domain.trim().toLowerCase() : '';
      const page = await listAudit(ctx.db, caller, {
        limit: query.limit,
        ...(requested ? { requestedDomain: requested } : {}),
        ...(query.action ? { action: query.action } : {}),
        ...(query.actor ? { actor: query.actor.trim().toLowerCase() } : {}),
        ...(query.targetType ? { targetType: query.targetType } : {}),
        ...(query.targetId ? { targetId: query.targetId } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        ...(after ? { after } : {}),
      });
      return { ...page, items: page.items.map(toAuditEntry) };
    },
  };
}
