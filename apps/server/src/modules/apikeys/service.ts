import type { AppContext } from '../../context.ts';
import { withState } from '../../lib/operations.ts';
import * as keys from './keys.ts';
import * as resolver from './resolver.ts';
import * as state from './state.ts';

export { TOUCH_EVERY_MS } from './resolver.ts';
export { hashSecret } from './state.ts';

/**
 * Personal API keys (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api) and the `apiKey` caller kind. A key acts as its user: the caller is
 * built from the accounts module's cached account state (`CallerStates.accountCaller`), so a
 * deactivated user, account or organisation stops every key of theirs as soon as that cache is
 * dropped — the same invalidation that ends their sessions. This object only names the operations
 * (docs/ARCHITECTURE.md#service-style): keys.ts and resolver.ts hold them over the state of state.ts.
 */
export function apiKeysService(ctx: AppContext) {
  const s = state.createApiKeysState(ctx);
  return {
    /** The `apiKey` caller kind (docs/ARCHITECTURE.md#callers), registered by the module's manifest. */
    resolver: withState(s, { resolve: resolver.resolve, peek: resolver.peek }),
    ...withState(s, {
      create: keys.create,
      list: keys.list,
      revoke: keys.revoke,
      recordUsage: keys.recordUsage,
      expireRequestLog: keys.expireRequestLog,
      close: state.close,
    }),
  };
}

export type ApiKeysService = ReturnType<typeof apiKeysService>;
