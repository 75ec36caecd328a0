import type { AuditAction, AuditEntry, AuditQuery } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { withState } from '../../lib/operations.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import { fromAfterTo } from './errors.ts';
import { authorize, can } from './policy.ts';
import { AUDIT_CURSOR_TAG, type AuditRow, latestEntry, listAudit } from './store.ts';

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

/** Admins read their domain's log; SuperAdmins everything, or one domain with `?domain=`. */
export async function list(
  ctx: AppContext,
  caller: UserCaller,
  query: AuditQuery,
): Promise<Page<AuditEntry>> {
  authorize(caller, 'read', caller.domain.id);
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from > to) throw fromAfterTo();
  const after = cursorsFor(ctx.config).parse(AUDIT_CURSOR_TAG, query.cursor, 2);
  // Only a domain the caller may read filters the log; anything else is the client's logging hint.
  const want = query.domain?.trim().toLowerCase();
  const requested = want && can(caller, 'read', want) ? want : '';
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
  return cursorsFor(ctx.config).page(AUDIT_CURSOR_TAG, page, toAuditEntry);
}

/**
 * What a job recorded for one domain since it started (`retention.run`'s counts): the run's own
 * counts sum every domain, which one domain's Admins must not read.
 */
async function recordedFor(
  ctx: AppContext,
  domainId: string,
  action: AuditAction,
  since: Date,
): Promise<Record<string, unknown> | null> {
  return (await latestEntry(ctx.db, domainId, action, since))?.after ?? null;
}

/** The audit log's reading side; every module writes into it with `recordAudit` (store.ts). */
export function auditService(ctx: AppContext) {
  return withState(ctx, { list, recordedFor });
}
