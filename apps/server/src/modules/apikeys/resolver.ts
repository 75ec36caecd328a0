import { API_KEY_PREFIX } from '@assistente/contracts';
import type { ApiKeyCaller, UserCaller } from '../../lib/caller.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { expired } from './keys.ts';
import { type ApiKeysState, hashSecret } from './state.ts';
import type { ApiKeyRow } from './store.ts';

/** How long a key found by its secret is trusted without the database (revocation drops it sooner). */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;
/** `lastUsedAt` is written at most this often per key: a busy key must not write on every call. */
export const TOUCH_EVERY_MS = 60_000;

/** Marks the key used, in the background, at most once per TOUCH_EVERY_MS on this replica. */
function touch(s: ApiKeysState, row: ApiKeyRow): void {
  const now = Date.now();
  const last = s.touched.get(row.id) ?? row.lastUsedAt?.getTime() ?? 0;
  if (now - last < TOUCH_EVERY_MS) return;
  s.touched.set(row.id, now);
  if (s.touched.size > CACHE_MAX) {
    for (const [id, at] of s.touched) if (now - at >= TOUCH_EVERY_MS) s.touched.delete(id);
  }
  s.store.touch(row.id, new Date(now)).catch((err: unknown) => {
    s.ctx.log.warn({ err }, 'api keys: could not record a key’s last use');
  });
}

function callerOf(row: ApiKeyRow, account: UserCaller): ApiKeyCaller {
  return {
    kind: 'apiKey',
    key: { id: row.id, name: row.name },
    user: account.user,
    domain: account.domain,
    role: account.role,
    premium: account.premium,
  };
}

function cached(s: ApiKeysState, hash: string): ApiKeyRow | undefined {
  const hit = s.byHash.get(hash);
  if (!hit) return undefined;
  if (hit.expires > Date.now()) return hit.row;
  s.byHash.delete(hash);
  return undefined;
}

export async function resolve(s: ApiKeysState, token: string): Promise<ApiKeyCaller | undefined> {
  if (!token.startsWith(API_KEY_PREFIX)) return undefined;
  const hash = hashSecret(token);
  let row = cached(s, hash);
  if (!row) {
    row = await s.store.byHash(hash);
    if (!row) throw unauthenticated('Invalid API key');
    if (s.byHash.size >= CACHE_MAX) {
      const oldest = s.byHash.keys().next();
      if (!oldest.done) s.byHash.delete(oldest.value);
    }
    s.byHash.set(hash, { row, expires: Date.now() + CACHE_TTL_MS });
  }
  if (expired(row)) throw unauthenticated('This API key has expired');
  const caller = callerOf(row, await s.ctx.services.callerStates.accountCaller(row.uid));
  touch(s, row);
  return caller;
}

export function peek(s: ApiKeysState, token: string): ApiKeyCaller | undefined {
  if (!token.startsWith(API_KEY_PREFIX)) return undefined;
  const row = cached(s, hashSecret(token));
  if (!row || expired(row)) return undefined;
  const account = s.ctx.services.callerStates.peekAccountCaller(row.uid);
  if (!account) return undefined;
  touch(s, row);
  return callerOf(row, account);
}
