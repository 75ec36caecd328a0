import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import type { SantitoRow } from './dto.ts';
import { santitoNotFound } from './errors.ts';
import { can } from './policy.ts';
import { type SantitosStore, santitosStore } from './store.ts';

/** What every santitos operation shares (docs/ARCHITECTURE.md#service-style): the context and the store. */
export interface SantitosState {
  readonly ctx: AppContext;
  readonly store: SantitosStore;
}

export function santitosState(ctx: AppContext, store: SantitosStore = santitosStore(ctx.db)): SantitosState {
  return { ctx, store };
}

/** Santitos are premium only: for a caller whose domain is not premium, every one answers 404. */
export function assertPremium(caller: UserCaller): void {
  if (!caller.premium) throw santitoNotFound();
}

/** The santito if the caller may see it; 404 otherwise. */
export async function visible(state: SantitosState, caller: UserCaller, id: string): Promise<SantitoRow> {
  assertPremium(caller);
  const row = await state.store.find(caller, id);
  if (!row) throw santitoNotFound();
  return row;
}

/** The santito if the caller may change it: 404 when they cannot see it, 403 when they only see it. */
export async function editable(state: SantitosState, caller: UserCaller, id: string): Promise<SantitoRow> {
  const row = await visible(state, caller, id);
  if (!can(caller, 'edit', row)) throw forbidden('Only its author or an Admin can change this santito');
  return row;
}
