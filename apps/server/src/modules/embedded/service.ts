import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import { create, get, list, remove, update } from './embeds.ts';
import { rotateSecret, secretOf } from './signing-secrets.ts';
import { virtualAccountsState } from './state.ts';
import type { VirtualAccountsStore } from './store.ts';

export { VIRTUAL_ACCOUNT_CHANGED } from './state.ts';

/**
 * Embeds (virtual accounts, docs/ARCHITECTURE.md#embedded-chat) as their domain's Admins manage
 * them. Premium only (the routes say so); another domain's embed answers 404 to an Admin, as if it
 * did not exist. Each operation lives in the file of its concern (docs/ARCHITECTURE.md#service-style).
 */
export function virtualAccountsService(ctx: AppContext, store?: VirtualAccountsStore, box?: SecretBox) {
  return withState(virtualAccountsState(ctx, store, box), {
    list,
    get,
    create,
    update,
    remove,
    rotateSecret,
    secretOf,
  });
}

export type VirtualAccountsService = ReturnType<typeof virtualAccountsService>;
