import type { AiSettings, AiSettingsUpdate } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { type AuditMeta, auditedTransaction } from '../audit/index.ts';
import { defaultModelOf, pick } from './models.ts';
import { adminDomain, changed, entriesFor, type ProvidersState } from './state.ts';
import { providersStore } from './store.ts';

/** A domain's own default model and the one in effect (docs/ARCHITECTURE.md#model-providers). */
export async function getAiSettings(
  s: ProvidersState,
  caller: UserCaller,
  domain?: string,
): Promise<AiSettings> {
  const domainId = await adminDomain(s, caller, domain);
  const own = await s.store.defaultModel(domainId);
  const entries = await entriesFor(s, domainId);
  return {
    domain: domainId,
    defaultModel: own,
    effectiveDefaultModel: (await defaultModelOf(s, domainId, entries))?.modelId ?? null,
  };
}

export async function putAiSettings(
  s: ProvidersState,
  caller: UserCaller,
  body: AiSettingsUpdate,
  meta: AuditMeta,
  domain?: string,
): Promise<AiSettings> {
  const domainId = await adminDomain(s, caller, domain);
  // The rule chats resolve models by: a default they could not use would be silently skipped.
  if (body.defaultModel && !pick(await entriesFor(s, domainId), body.defaultModel)) {
    throw invalidField('defaultModel', 'No configured provider offers this model');
  }
  const before = await s.store.defaultModel(domainId);
  await auditedTransaction(s.ctx.db, caller, meta, providersStore, async (tx) => {
    await tx.setAiSettings(domainId, { defaultModel: body.defaultModel });
    return {
      result: undefined,
      audit: {
        action: 'domain.ai.update',
        targetType: 'domain',
        targetId: domainId,
        domainId,
        before: { defaultModel: before },
        after: { defaultModel: body.defaultModel },
      },
    };
  });
  await changed(s, domainId);
  return getAiSettings(s, caller, domainId);
}
