import type { AppContext } from '../../context.ts';
import { type CursorCodec, cursorsFor } from '../../lib/paging.ts';
import { type AccountsStore, accountsStore } from './store.ts';

/**
 * What every accounts operation shares (docs/ARCHITECTURE.md#service-style): the context, the
 * store over the pool and the list cursors. Transactions open their own store over `tx`.
 */
export interface AccountsState {
  readonly ctx: AppContext;
  readonly store: AccountsStore;
  readonly cursors: CursorCodec;
}

export function accountsState(ctx: AppContext, store: AccountsStore = accountsStore(ctx.db)): AccountsState {
  return { ctx, store, cursors: cursorsFor(ctx.config) };
}

/** User ids are lowercased emails; domain ids lowercased DNS names. */
export const normalizeId = (id: string) => id.trim().toLowerCase();
