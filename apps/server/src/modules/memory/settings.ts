import type { MemorySettings } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { type AuditMeta, auditedTransaction } from '../audit/index.ts';
import { authorize } from './policy.ts';
import { type MemoryState, switched } from './state.ts';
import { memoryStore } from './store.ts';

/** The domain an Admin acts on: their own, or any for a SuperAdmin (`?domain=`). */
async function adminDomain(s: MemoryState, caller: UserCaller, requested?: string): Promise<string> {
  authorize(caller, 'manage', caller.domain.id, 'Only Admins turn memory on or off');
  return existingActingDomain(s.ctx.db, caller, requested);
}

/** GET /api/v1/settings/memory */
export async function getSettings(
  s: MemoryState,
  caller: UserCaller,
  domain?: string,
): Promise<MemorySettings> {
  const domainId = await adminDomain(s, caller, domain);
  return { enabled: await s.store.enabled(domainId) };
}

/** PUT /api/v1/settings/memory: audited when it changes; every replica drops its cached switch. */
export async function putSettings(
  s: MemoryState,
  caller: UserCaller,
  body: MemorySettings,
  meta: AuditMeta,
  domain?: string,
): Promise<MemorySettings> {
  const domainId = await adminDomain(s, caller, domain);
  const before = await s.store.enabled(domainId);
  if (before === body.enabled) return { enabled: before };
  await auditedTransaction(s.ctx.db, caller, meta, memoryStore, async (store) => {
    await store.setEnabled(domainId, body.enabled);
    return {
      result: undefined,
      audit: {
        action: 'memory.settings.update',
        targetType: 'domain',
        targetId: domainId,
        domainId,
        before: { enabled: before },
        after: { enabled: body.enabled },
      },
    };
  });
  await switched(s, domainId);
  return { enabled: body.enabled };
}
