import { managesPiiFilter, type PiiSettings } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
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
  filters: Map<string, { filter: PiiFilter; at: number }>;
  unsubscribe: () => void;
}

/** Bus channel: a domain's PII settings changed (`{ domain }`): every replica drops its copy. */
const PII_CHANGED = 'pii.changed';
/** How long a domain's filter is reused without asking the database. */
const FILTER_TTL_MS = 30_000;

const policy = definePolicy({
  manage: (caller, domainId: string) => managesPiiFilter(actor(caller), domainId),
});

export function createPiiState(ctx: AppContext): PiiState {
  const filters: PiiState['filters'] = new Map();
  const unsubscribe = ctx.bus.subscribe(PII_CHANGED, (msg) => {
    const domain = (msg as { domain?: unknown } | undefined)?.domain;
    if (typeof domain === 'string') filters.delete(domain);
  });
  return { ctx, store: piiStore(ctx.db), filters, unsubscribe };
}

/** The domain's filter: from the cache, else one read of its settings (none: off). */
export async function filterFor(s: PiiState, domainId: string): Promise<PiiFilter> {
  const hit = s.filters.get(domainId);
  if (hit && Date.now() - hit.at < FILTER_TTL_MS) return hit.filter;
  const filter = piiFilter((await s.store.read(domainId)) ?? PII_OFF);
  if (s.filters.size > 10_000) s.filters.clear();
  s.filters.set(domainId, { filter, at: Date.now() });
  return filter;
}

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
  s.filters.delete(domainId);
  await s.ctx.bus.publish(PII_CHANGED, { domain: domainId }).catch((err: unknown) => {
    s.ctx.log.warn({ err }, 'could not publish a PII settings change');
  });
  return body;
}

export function close(s: PiiState): void {
  s.unsubscribe();
}
