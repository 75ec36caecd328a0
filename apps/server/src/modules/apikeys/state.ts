import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { cursorsFor } from '../../lib/paging.ts';
import { type ApiKeyRow, type ApiKeysStore, apiKeysStore } from './store.ts';

/** Bus channel: a key was revoked (`{ id }`); every replica forgets it at once. */
export const API_KEY_REVOKED = 'apikeys.revoked';

/** SHA-256 of the secret, hex: what is stored and looked up. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** What every API key operation shares (docs/ARCHITECTURE.md#service-style): built once per app. */
export interface ApiKeysState {
  ctx: AppContext;
  store: ApiKeysStore;
  cursors: ReturnType<typeof cursorsFor>;
  /** Keys found by their secret's hash, trusted until `expires`. */
  byHash: Map<string, { row: ApiKeyRow; expires: number }>;
  /** When this replica last wrote each key's `lastUsedAt`. */
  touched: Map<string, number>;
  unsubscribe: () => void;
}

export function createApiKeysState(ctx: AppContext): ApiKeysState {
  const state: ApiKeysState = {
    ctx,
    store: apiKeysStore(ctx.db),
    cursors: cursorsFor(ctx.config),
    byHash: new Map(),
    touched: new Map(),
    unsubscribe: ctx.bus.subscribe(API_KEY_REVOKED, (message) => {
      const id = (message as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string') forget(state, id);
    }),
  };
  return state;
}

/** Drops the key from this replica's caches. */
export function forget(s: ApiKeysState, id: string): void {
  for (const [hash, hit] of s.byHash) if (hit.row.id === id) s.byHash.delete(hash);
  s.touched.delete(id);
}

export function close(s: ApiKeysState): void {
  s.unsubscribe();
}
