import type { VirtualAccount } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { toVirtualAccount } from './dto.ts';
import { virtualAccountNotFound } from './errors.ts';
import { authorize, can } from './policy.ts';
import { type VirtualAccountRow, type VirtualAccountsStore, virtualAccountsStore } from './store.ts';

/**
 * Bus channel: an embed changed or went away (`{ virtualAccountId }`). Every replica drops what it
 * cached of it and re-checks, or closes, its visitors' connections.
 */
export const VIRTUAL_ACCOUNT_CHANGED = 'embedded.virtual_account.changed';

/** What every embed operation shares (docs/ARCHITECTURE.md#service-style): the store and the box sealing secrets. */
export interface VirtualAccountsState {
  readonly ctx: AppContext;
  readonly store: VirtualAccountsStore;
  readonly box: SecretBox;
}

export function virtualAccountsState(
  ctx: AppContext,
  store: VirtualAccountsStore = virtualAccountsStore(ctx.db),
  box: SecretBox = secretBoxFor(ctx.config),
): VirtualAccountsState {
  return { ctx, store, box };
}

/** The domain the caller acts on: their own, or (SuperAdmin) the one asked for. */
export async function adminDomain(state: VirtualAccountsState, caller: UserCaller, requested?: string) {
  authorize(caller, 'manage', caller.domain.id, 'Only Admins manage embeds');
  return existingActingDomain(state.ctx.db, caller, requested);
}

/** The embed and its domain if the caller manages it; 404 otherwise (another domain's are invisible). */
export async function managed(
  { store }: VirtualAccountsState,
  caller: UserCaller,
  id: string,
): Promise<VirtualAccountRow> {
  authorize(caller, 'manage', caller.domain.id, 'Only Admins manage embeds');
  const domainId = await store.domainOf(id);
  if (!domainId || !can(caller, 'manage', domainId)) throw virtualAccountNotFound();
  const row = await store.find(domainId, id);
  if (!row) throw virtualAccountNotFound();
  return row;
}

/** An embed's santito must be an active one of its domain. */
export async function checkAgent(
  { ctx }: VirtualAccountsState,
  domainId: string,
  agentId: string | null | undefined,
): Promise<void> {
  if (agentId && (await ctx.services.santitos.findForEmbed(agentId))?.domainId !== domainId) {
    throw invalidField('agentId', 'No such santito in this organisation');
  }
}

export async function withStats(
  { store }: VirtualAccountsState,
  row: VirtualAccountRow,
): Promise<VirtualAccount> {
  return toVirtualAccount(row, (await store.usage([row.id])).get(row.id));
}

/** Tells every replica an embed changed; a failure is logged (their caches expire anyway). */
export async function changed({ ctx }: VirtualAccountsState, virtualAccountId: string): Promise<void> {
  try {
    await ctx.bus.publish(VIRTUAL_ACCOUNT_CHANGED, { virtualAccountId });
  } catch (err) {
    ctx.log.error({ err, virtualAccountId }, 'embedded: could not publish an embed change');
  }
}
