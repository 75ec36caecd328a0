import { randomBytes } from 'node:crypto';
import type { VirtualAccountWithSecret } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { type AuditMeta, auditedTransaction } from '../audit/index.ts';
import { virtualAccountNotFound } from './errors.ts';
import { changed, managed, type VirtualAccountsState, withStats } from './state.ts';
import { type VirtualAccountRow, virtualAccountsStore } from './store.ts';

/** An embed's signing secret: sealed at rest, answered in clear once, when made. */

/** 256 bits, hex: easy to paste into any server's HMAC call. */
export const newSecret = () => randomBytes(32).toString('hex');

/** A new signing secret, answered once; signatures made with the old one stop working at once. */
export async function rotateSecret(
  state: VirtualAccountsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<VirtualAccountWithSecret> {
  const { box } = state;
  const current = await managed(state, caller, id);
  const secret = newSecret();
  const row = await auditedTransaction(state.ctx.db, caller, meta, virtualAccountsStore, async (s) => {
    const updated = await s.update(current.domainId, id, { secretEnc: box.seal(secret, id) });
    if (!updated) throw virtualAccountNotFound();
    return {
      result: updated,
      audit: {
        action: 'virtual_account.secret.rotate',
        targetType: 'virtual_account',
        targetId: id,
        domainId: current.domainId,
        after: { displayName: updated.displayName, signingKeyRotated: true },
      },
    };
  });
  await changed(state, id);
  return { ...(await withStats(state, row)), secret };
}

/** The embed's signing secret in clear, for checking a signed visitor. */
export function secretOf(state: VirtualAccountsState, row: VirtualAccountRow): string {
  const { box } = state;
  return box.open(row.secretEnc, row.id);
}
