import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  ApiKeyLimits,
  type ApiKeyListQuery,
  spansDomains,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { ApiKeyCaller, UserCaller } from '../../lib/caller.ts';
import { invalidField, unauthenticated } from '../../lib/errors.ts';
import { cursorsFor, type Page } from '../../lib/paging.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import { apiKeyNotFound, tooManyKeys } from './errors.ts';
import { authorize, can } from './policy.ts';
import { API_KEYS_CURSOR_TAG, type ApiKeyRow, type ApiUsageInsert, apiKeysStore } from './store.ts';

/** Bus channel: a key was revoked (`{ id }`); every replica forgets it at once. */
const API_KEY_REVOKED = 'apikeys.revoked';

/** How long a key found by its secret is trusted without the database (revocation drops it sooner). */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;
/** `lastUsedAt` is written at most this often per key: a busy key must not write on every call. */
export const TOUCH_EVERY_MS = 60_000;

/** SHA-256 of the secret, hex: what is stored and looked up. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A new secret: `ak_` and 256 random bits in base64url. */
function newSecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

const expired = (row: ApiKeyRow, now = Date.now()) =>
  row.expiresAt !== null && row.expiresAt.getTime() <= now;

/**
 * Personal API keys (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api) and the `apiKey` caller kind. A key acts as its user: the caller is
 * built from the accounts module's cached account state (`CallerStates.accountCaller`), so a
 * deactivated user, account or organisation stops every key of theirs as soon as that cache is
 * dropped — the same invalidation that ends their sessions.
 */
export function apiKeysService(ctx: AppContext) {
  const store = apiKeysStore(ctx.db);
  const cursors = cursorsFor(ctx.config);
  const byHash = new Map<string, { row: ApiKeyRow; expires: number }>();
  /** When this replica last wrote each key's `lastUsedAt`. */
  const touched = new Map<string, number>();

  function forget(id: string): void {
    for (const [hash, hit] of byHash) if (hit.row.id === id) byHash.delete(hash);
    touched.delete(id);
  }

  const unsubscribe = ctx.bus.subscribe(API_KEY_REVOKED, (message) => {
    const id = (message as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') forget(id);
  });

  /** Marks the key used, in the background, at most once per TOUCH_EVERY_MS on this replica. */
  function touch(row: ApiKeyRow): void {
    const now = Date.now();
    const last = touched.get(row.id) ?? row.lastUsedAt?.getTime() ?? 0;
    if (now - last < TOUCH_EVERY_MS) return;
    touched.set(row.id, now);
    if (touched.size > CACHE_MAX) {
      for (const [id, at] of touched) if (now - at >= TOUCH_EVERY_MS) touched.delete(id);
    }
    store.touch(row.id, new Date(now)).catch((err: unknown) => {
      ctx.log.warn({ err }, 'api keys: could not record a key’s last use');
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

  function cached(hash: string): ApiKeyRow | undefined {
    const hit = byHash.get(hash);
    if (!hit) return undefined;
    if (hit.expires > Date.now()) return hit.row;
    byHash.delete(hash);
    return undefined;
  }

  async function resolve(token: string): Promise<ApiKeyCaller | undefined> {
    if (!token.startsWith(API_KEY_PREFIX)) return undefined;
    const hash = hashSecret(token);
    let row = cached(hash);
    if (!row) {
      row = await store.byHash(hash);
      if (!row) throw unauthenticated('Invalid API key');
      if (byHash.size >= CACHE_MAX) {
        const oldest = byHash.keys().next();
        if (!oldest.done) byHash.delete(oldest.value);
      }
      byHash.set(hash, { row, expires: Date.now() + CACHE_TTL_MS });
    }
    if (expired(row)) throw unauthenticated('This API key has expired');
    const caller = callerOf(row, await ctx.services.callerStates.accountCaller(row.uid));
    touch(row);
    return caller;
  }

  function peek(token: string): ApiKeyCaller | undefined {
    if (!token.startsWith(API_KEY_PREFIX)) return undefined;
    const row = cached(hashSecret(token));
    if (!row || expired(row)) return undefined;
    const account = ctx.services.callerStates.peekAccountCaller(row.uid);
    if (!account) return undefined;
    touch(row);
    return callerOf(row, account);
  }

  return {
    /** The `apiKey` caller kind (docs/ARCHITECTURE.md#callers), registered by the module's manifest. */
    resolver: { resolve, peek },

    async create(caller: UserCaller, body: ApiKeyCreate, meta: AuditMeta): Promise<ApiKeyCreated> {
      const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now()) {
        throw invalidField('expiresAt', 'The expiry must be in the future');
      }
      if ((await store.countOfUser(caller.user.id)) >= ApiKeyLimits.perUser) {
        throw tooManyKeys(ApiKeyLimits.perUser);
      }
      const secret = newSecret();
      const prefix = secret.slice(0, ApiKeyLimits.prefixLength);
      const row = await ctx.db.transaction(async (tx) => {
        const made = await apiKeysStore(tx).insert({
          id: randomUUID(),
          userId: caller.user.id,
          uid: caller.uid,
          domainId: caller.domain.id,
          name: body.name,
          prefix,
          secretHash: hashSecret(secret),
          expiresAt,
        });
        await recordAudit(tx, caller, meta, {
          action: 'apiKey.create',
          targetType: 'apiKey',
          targetId: made.id,
          domainId: made.domainId,
          after: { displayName: made.name, prefix, expiresAt: made.expiresAt },
        });
        return made;
      });
      return { ...toApiKey(row), secret };
    },

    /** The caller's own keys, or (`scope=domain`) every key of a domain they administer. */
    async list(caller: UserCaller, query: ApiKeyListQuery): Promise<Page<ApiKey>> {
      const after = cursors.parse(API_KEYS_CURSOR_TAG, query.cursor, 2);
      let scope: { userId: string } | { domainId: string } = { userId: caller.user.id };
      if (query.scope === 'domain') {
        // Only a SuperAdmin names another domain; for anyone else `domain` is the client's hint.
        const want = query.domain?.trim().toLowerCase();
        const domainId = want && spansDomains(caller) ? want : caller.domain.id;
        authorize(caller, 'listDomain', domainId, 'Only Admins can list their organisation’s API keys');
        scope = { domainId };
      }
      const page = await store.list(scope, { limit: query.limit, ...(after ? { after } : {}) });
      return cursors.page(API_KEYS_CURSOR_TAG, page, toApiKey);
    },

    /**
     * Deletes the key: from the next request on it is refused, on every replica. Someone who may
     * not manage it is told it does not exist.
     */
    async revoke(caller: UserCaller, id: string, meta: AuditMeta): Promise<void> {
      const row = await store.byId(id);
      if (!row || !can(caller, 'manage', row)) throw apiKeyNotFound();
      await ctx.db.transaction(async (tx) => {
        const gone = await apiKeysStore(tx).remove(id);
        if (!gone) throw apiKeyNotFound();
        await recordAudit(tx, caller, meta, {
          action: 'apiKey.revoke',
          targetType: 'apiKey',
          targetId: id,
          domainId: row.domainId,
          before: { displayName: row.name, prefix: row.prefix, expiresAt: row.expiresAt },
        });
      });
      forget(id);
      try {
        await ctx.bus.publish(API_KEY_REVOKED, { id });
      } catch (err) {
        // This replica already forgot it; the others within CACHE_TTL_MS.
        ctx.log.error({ err }, 'api keys: could not publish a revocation');
      }
    },

    /** One call of the OpenAI-compatible API, counted in the user's usage. */
    async recordUsage(row: Omit<ApiUsageInsert, 'id'>): Promise<void> {
      await store.recordUsage({ id: randomUUID(), ...row });
    },

    close(): void {
      unsubscribe();
    },
  };
}

export type ApiKeysService = ReturnType<typeof apiKeysService>;
