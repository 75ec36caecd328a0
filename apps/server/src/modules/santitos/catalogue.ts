import type { Santito, SantitoListQuery } from '@assistente/contracts';
import type { Caller, UserCaller } from '../../lib/caller.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import type { AccountCaller } from '../../lib/policy.ts';
import { type SantitoRow, toSantito } from './dto.ts';
import { assertPremium, type SantitosState, visible } from './state.ts';

/** The list's order (name, case-insensitive, then id): its cursors' tag. */
const SANTITO_CURSOR_TAG = 'santitos:name:asc';

/** A santito the caller may chat with, or undefined (also when the domain is not premium). */
export async function findUsable(
  state: SantitosState,
  caller: Caller,
  id: string,
): Promise<SantitoRow | undefined> {
  const { store } = state;
  if (!caller.premium) return undefined;
  return store.find(caller, id);
}

/** Every santito the caller may chat with, by name (none when the domain is not premium). */
export async function listUsable(
  state: SantitosState,
  caller: AccountCaller,
  limit = 200,
): Promise<SantitoRow[]> {
  const { store } = state;
  if (!caller.premium) return [];
  return (await store.list(caller, { limit })).items;
}

export async function list(
  state: SantitosState,
  caller: UserCaller,
  query: SantitoListQuery,
): Promise<Page<Santito>> {
  const { ctx, store } = state;
  const cursors = cursorsFor(ctx.config);
  assertPremium(caller);
  const after = cursors.parse(SANTITO_CURSOR_TAG, query.cursor, 2);
  const page = await store.list(caller, {
    limit: query.limit,
    ...(after ? { after } : {}),
    ...(query.q ? { q: query.q } : {}),
  });
  return cursors.page(SANTITO_CURSOR_TAG, page, (r) => toSantito(r, caller));
}

export async function get(state: SantitosState, caller: UserCaller, id: string): Promise<Santito> {
  return toSantito(await visible(state, caller, id), caller);
}

/**
 * The santito an embed shows its visitors, active, whatever the caller (embeds check the domain
 * themselves): the embedded module asks here rather than reading santitos' table.
 */
export function findForEmbed({ store }: SantitosState, id: string): Promise<SantitoRow | undefined> {
  return store.findActive(id);
}
