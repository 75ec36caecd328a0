import { randomBytes, randomUUID } from 'node:crypto';
import {
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  ApiKeyLimits,
  type ApiKeyListQuery,
  RetentionLimits,
  spansDomains,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { PacedBatches } from '../../lib/paced-batches.ts';
import type { Page } from '../../lib/paging.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import { apiKeyNotFound, tooManyKeys } from './errors.ts';
import { authorize, can } from './policy.ts';
import { API_KEY_REVOKED, type ApiKeysState, forget, hashSecret } from './state.ts';
import { API_KEYS_CURSOR_TAG, type ApiKeyRow, type ApiUsageInsert, apiKeysStore } from './store.ts';

/** A new secret: `ak_` and 256 random bits in base64url. */
function newSecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

function toApiKey(row: ApiKeyRow): ApiKey {
  const { id, name, prefix, userId } = row;
  return {
    id,
    name,
    prefix,
    userId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

export const expired = (row: ApiKeyRow, now = Date.now()) =>
  row.expiresAt !== null && row.expiresAt.getTime() <= now;

export async function create(
  s: ApiKeysState,
  caller: UserCaller,
  body: ApiKeyCreate,
  meta: AuditMeta,
): Promise<ApiKeyCreated> {
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw invalidField('expiresAt', 'The expiry must be in the future');
  }
  if ((await s.store.countOfUser(caller.user.id)) >= ApiKeyLimits.perUser) {
    throw tooManyKeys(ApiKeyLimits.perUser);
  }
  const secret = newSecret();
  const prefix = secret.slice(0, ApiKeyLimits.prefixLength);
  const row = await s.ctx.db.transaction(async (tx) => {
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
}

/** The caller's own keys, or (`scope=domain`) every key of a domain they administer. */
export async function list(
  s: ApiKeysState,
  caller: UserCaller,
  query: ApiKeyListQuery,
): Promise<Page<ApiKey>> {
  const after = s.cursors.parse(API_KEYS_CURSOR_TAG, query.cursor, 2);
  let scope: { userId: string } | { domainId: string } = { userId: caller.user.id };
  if (query.scope === 'domain') {
    // Only a SuperAdmin names another domain; for anyone else `domain` is the client's hint.
    const want = query.domain?.trim().toLowerCase();
    const domainId = want && spansDomains(caller) ? want : caller.domain.id;
    authorize(caller, 'listDomain', domainId, 'Only Admins can list their organisation’s API keys');
    scope = { domainId };
  }
  const page = await s.store.list(scope, { limit: query.limit, ...(after ? { after } : {}) });
  return s.cursors.page(API_KEYS_CURSOR_TAG, page, toApiKey);
}

/**
 * Deletes the key: from the next request on it is refused, on every replica. Someone who may
 * not manage it is told it does not exist.
 */
export async function revoke(
  s: ApiKeysState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
): Promise<void> {
  const row = await s.store.byId(id);
  if (!row || !can(caller, 'manage', row)) throw apiKeyNotFound();
  await s.ctx.db.transaction(async (tx) => {
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
  forget(s, id);
  try {
    await s.ctx.bus.publish(API_KEY_REVOKED, { id });
  } catch (err) {
    // This replica already forgot it; the others within CACHE_TTL_MS.
    s.ctx.log.error({ err }, 'api keys: could not publish a revocation');
  }
}

/** One call of the OpenAI-compatible API, counted in the user's usage. */
export async function recordUsage(s: ApiKeysState, row: Omit<ApiUsageInsert, 'id'>): Promise<void> {
  await s.store.recordUsage({ id: randomUUID(), ...row });
}

/**
 * Retention of the API's request log (docs/ARCHITECTURE.md#retention): deletes the domain's rows
 * older than `before`, in statements of at most RetentionLimits.batchRows rows (sized to a few
 * milliseconds) with `pause` between, except
 * those of the people `keep` (on legal hold). The usage ledger is another module's and stays.
 */
export async function expireRequestLog(
  s: ApiKeysState,
  rule: { domainId: string; before: Date; keep: readonly string[] },
  pause: () => Promise<void>,
): Promise<number> {
  let total = 0;
  const paced = new PacedBatches(RetentionLimits.batchRows);
  for (;;) {
    let asked = 0;
    const n = await paced.run((size) => {
      asked = size;
      return s.store.deleteRequestLog(rule.domainId, rule.before, rule.keep, size);
    });
    total += n;
    if (n < asked) return total;
    await pause();
  }
}
