import { managesPiiFilter, type PiiSettings } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { type DomainCache, domainCache } from '../../lib/domain-cache.ts';
import { PII_OFF, type PiiFilter, piiFilter } from '../../lib/pii-filter.ts';
import { actor, definePolicy } from '../../lib/policy.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { type AuditMeta, auditedTransaction } from '../audit/index.ts';
import { type PiiStore, piiStore } from './pii-store.ts';

/*
 * Each domain's PII filter (docs/ARCHITECTURE.md#pii-filter): its settings, read by every message a
 * person sends, so kept per domain for a while and dropped on every replica when an Admin changes them.
 */

export interface PiiState {
  ctx: AppContext;
  store: PiiStore;
  filters: DomainCache<PiiFilter>;
}

const policy = definePolicy({
  manage: (caller, domainId: string) => managesPiiFilter(actor(caller), domainId),
});

export function createPiiState(ctx: AppContext): PiiState {
  const store = piiStore(ctx.db);
  const filters = domainCache({
    bus: ctx.bus,
    log: ctx.log,
    channel: 'pii.changed',
    ttlMs: 30_000,
    load: async (domainId) => piiFilter((await store.read(domainId)) ?? PII_OFF),
  });
  return { ctx, store, filters };
}

/** The domain's filter (a domain that never set one: off). */
export const filterFor = (s: PiiState, domainId: string): Promise<PiiFilter> => s.filters.get(domainId);

/** What a person of the domain sent, as it may reach a model and the database (PII_BLOCKED in block mode). */
export async function screen(s: PiiState, domainId: string, text: string): Promise<string> {
  return (await filterFor(s, domainId)).text(text);
}

async function adminDomain(s: PiiState, caller: UserCaller, requested?: string): Promise<string> {
  policy.authorize(caller, 'manage', caller.domain.id, 'Only Admins set the PII filter');
  return existingActingDomain(s.ctx.db, caller, requested);
}

/** GET /api/v1/settings/pii */
export async function getSettings(s: PiiState, caller: UserCaller, domain?: string): Promise<PiiSettings> {
  const domainId = await adminDomain(s, caller, domain);
  return (await s.store.read(domainId)) ?? PII_OFF;
}

const same = (a: PiiSettings, b: PiiSettings) =>
  a.mode === b.mode && a.kinds.length === b.kinds.length && a.kinds.every((k) => b.kinds.includes(k));

/** PUT /api/v1/settings/pii: audited when it changes; every replica drops its cached filter. */
export async function putSettings(
  s: PiiState,
  caller: UserCaller,
  body: PiiSettings,
  meta: AuditMeta,
  domain?: string,
): Promise<PiiSettings> {
  const domainId = await adminDomain(s, caller, domain);
  const before = (await s.store.read(domainId)) ?? PII_OFF;
  if (same(before, body)) return before;
  await auditedTransaction(s.ctx.db, caller, meta, piiStore, async (store) => {
    await store.write(domainId, body);
    return {
      result: undefined,
      audit: {
        action: 'pii.settings.update',
        targetType: 'domain',
        targetId: domainId,
        domainId,
        before,
        after: body,
      },
    };
  });
  await s.filters.changed(domainId);
  return body;
}

export function close(s: PiiState): void {
  s.filters.close();
}
