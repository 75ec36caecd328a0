import type { LegalHold, LegalHoldInput } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import { userNotFound } from './errors.ts';
import { authorize } from './policy.ts';
import { type AccountsState, normalizeId } from './state.ts';
import { accountsStore } from './store.ts';

/**
 * PUT /api/v1/user/{id}/legal_hold: an Admin of the person's domain, or a SuperAdmin, suspends (or
 * lets go on) the deletion of what is theirs (docs/ARCHITECTURE.md#retention). Audited when it
 * changes; anyone else gets the same 404 as a missing person.
 */
export async function setLegalHold(
  state: AccountsState,
  caller: UserCaller,
  id: string,
  input: LegalHoldInput,
  meta: AuditMeta,
): Promise<LegalHold> {
  const { ctx, store } = state;
  authorize(caller, 'administer', null);
  const target = await store.findUser(caller, normalizeId(id));
  if (!target) throw userNotFound();
  authorize(caller, 'administerDomain', target.domainId, 'You may not hold this person’s data');
  if (target.legalHold === input.hold) return { userId: target.id, hold: input.hold };
  const row = await ctx.db.transaction(async (tx) => {
    const updated = await accountsStore(tx).setLegalHold(caller, target.id, input.hold);
    if (!updated) return undefined;
    await recordAudit(tx, caller, meta, {
      action: 'legal_hold.update',
      targetType: 'user',
      targetId: updated.id,
      domainId: updated.domainId,
      before: { legalHold: target.legalHold },
      after: { legalHold: updated.legalHold },
    });
    return updated;
  });
  if (!row) throw userNotFound();
  // The person's cached state carries the row: dropped, so the next read sees the hold.
  await ctx.services.callerStates.invalidate({ email: row.id });
  return { userId: row.id, hold: row.legalHold };
}

/** The ids of a domain's people on legal hold, for retention (no caller: a background job asks). */
export function heldUsers(state: AccountsState, domainId: string): Promise<string[]> {
  return state.store.heldUsers(domainId);
}
