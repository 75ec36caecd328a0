import { randomBytes } from 'node:crypto';
import {
  type ProviderConfig,
  type ProviderConfigCreate,
  type ProviderConfigUpdate,
  ProviderKindsNeedingApiKey,
  ProviderKindsNeedingBaseUrl,
  type ProviderTestResult,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import { assertFieldUrlAllowed } from '../../lib/ssrf.ts';
import { type AuditMeta, auditedTransaction, changedFields } from '../audit/index.ts';
import { describeProviderError, providerFailureOf, providerNotFound } from './errors.ts';
import { listProviderModels } from './factory.ts';
import { LIST_TIMEOUT_MS, MODELS_TTL_MS, pick } from './models.ts';
import { adminDomain, changed, domainEntry, entriesFor, type ProvidersState } from './state.ts';
import { type ProviderConfigPatch, type ProviderConfigRow, providersStore } from './store.ts';

const newProviderId = () => `p${randomBytes(6).toString('hex')}`;

/** The last 4 characters of a key long enough that 4 characters give nothing away. */
const keyHint = (key: string) => (key.length >= 12 ? key.slice(-4) : null);

function toDto(row: ProviderConfigRow): ProviderConfig {
  const { id, domainId: domain, kind, label, baseUrl, apiKeyHint, models, enabled } = row;
  return {
    id,
    domain,
    kind,
    label,
    baseUrl,
    hasApiKey: Boolean(row.apiKeyEnc),
    apiKeyHint,
    models,
    enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a configuration: never the key, only whether there is one. */
const audited = (row: ProviderConfigRow) => ({
  displayName: row.label,
  kind: row.kind,
  baseUrl: row.baseUrl,
  models: row.models,
  enabled: row.enabled,
  keySet: Boolean(row.apiKeyEnc),
});

/** Refuses an Admin-set URL that breaks the SSRF rule, with a message the Admin can act on. */
async function checkBaseUrl(s: ProvidersState, url: string | null | undefined): Promise<void> {
  if (url) await assertFieldUrlAllowed('baseUrl', url, s.ctx.config.PROVIDER_URL_ALLOWLIST);
}

/** The domain's configuration `id`, for an Admin acting on it. */
async function configOf(s: ProvidersState, domainId: string, id: string): Promise<ProviderConfigRow> {
  const row = await s.store.find(domainId, id);
  if (!row) throw providerNotFound();
  return row;
}

export async function list(
  s: ProvidersState,
  caller: UserCaller,
  domain?: string,
): Promise<ProviderConfig[]> {
  const domainId = await adminDomain(s, caller, domain);
  return (await s.store.list(domainId)).map(toDto);
}

export async function create(
  s: ProvidersState,
  caller: UserCaller,
  body: ProviderConfigCreate,
  meta: AuditMeta,
  domain?: string,
): Promise<ProviderConfig> {
  const domainId = await adminDomain(s, caller, domain);
  await checkBaseUrl(s, body.baseUrl);
  const id = newProviderId();
  const apiKey = body.apiKey?.trim() || null;
  const row = await auditedTransaction(s.ctx.db, caller, meta, providersStore, async (tx) => {
    const inserted = await tx.insert({
      id,
      domainId,
      kind: body.kind,
      label: body.label,
      baseUrl: body.baseUrl ?? null,
      apiKeyEnc: apiKey ? s.box.seal(apiKey, id) : null,
      apiKeyHint: apiKey ? keyHint(apiKey) : null,
      models: [...new Set(body.models ?? [])],
      enabled: body.enabled ?? true,
    });
    return {
      result: inserted,
      audit: {
        action: 'provider.create',
        targetType: 'provider',
        targetId: id,
        domainId,
        after: audited(inserted),
      },
    };
  });
  await changed(s, domainId);
  return toDto(row);
}

export async function update(
  s: ProvidersState,
  caller: UserCaller,
  id: string,
  body: ProviderConfigUpdate,
  meta: AuditMeta,
  domain?: string,
): Promise<ProviderConfig> {
  const domainId = await adminDomain(s, caller, domain);
  const current = await configOf(s, domainId, id);
  const patch: ProviderConfigPatch = {};
  if (body.label !== undefined) patch.label = body.label;
  if (body.baseUrl !== undefined) {
    if (!body.baseUrl && ProviderKindsNeedingBaseUrl.includes(current.kind)) {
      throw invalidField('baseUrl', `A base URL is required for ${current.kind}`);
    }
    await checkBaseUrl(s, body.baseUrl);
    patch.baseUrl = body.baseUrl ?? null;
  }
  // Empty or absent keeps the stored key: the form never has it to send back.
  if (body.apiKey === null) {
    if (ProviderKindsNeedingApiKey.includes(current.kind)) {
      throw invalidField('apiKey', `An API key is required for ${current.kind}`);
    }
    patch.apiKeyEnc = null;
    patch.apiKeyHint = null;
  } else if (body.apiKey?.trim()) {
    const key = body.apiKey.trim();
    patch.apiKeyEnc = s.box.seal(key, current.id);
    patch.apiKeyHint = keyHint(key);
  }
  if (body.models !== undefined) patch.models = [...new Set(body.models)];
  if (body.enabled !== undefined) patch.enabled = body.enabled;
  const row = await auditedTransaction(s.ctx.db, caller, meta, providersStore, async (tx) => {
    const updated = await tx.update(domainId, id, patch);
    if (!updated) throw providerNotFound();
    const diff = changedFields(audited(current), audited(updated));
    // A new key is a change even when the old one was set too; the key itself is never logged.
    if (patch.apiKeyEnc) diff.after.keyReplaced = true;
    return {
      result: updated,
      audit: {
        action: 'provider.update',
        targetType: 'provider',
        targetId: id,
        domainId,
        before: { displayName: current.label, ...diff.before },
        after: { displayName: updated.label, ...diff.after },
      },
    };
  });
  await changed(s, domainId);
  return toDto(row);
}

export async function remove(
  s: ProvidersState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
  domain?: string,
): Promise<void> {
  const domainId = await adminDomain(s, caller, domain);
  const current = await configOf(s, domainId, id);
  const own = await s.store.defaultModel(domainId);
  // A default that only this provider offered would name a model nobody can use: it goes too.
  const remaining = (await entriesFor(s, domainId)).filter((e) => e.provider !== id);
  const clearDefault = own !== null && !pick(remaining, own);
  await auditedTransaction(s.ctx.db, caller, meta, providersStore, async (tx) => {
    if (!(await tx.remove(domainId, id))) throw providerNotFound();
    if (clearDefault) await tx.setAiSettings(domainId, { defaultModel: null });
    return {
      result: undefined,
      audit: {
        action: 'provider.delete',
        targetType: 'provider',
        targetId: id,
        domainId,
        before: { ...audited(current), ...(clearDefault ? { defaultModel: own } : {}) },
        ...(clearDefault ? { after: { defaultModel: null } } : {}),
      },
    };
  });
  await changed(s, domainId);
}

/** Lists the provider's models with the stored settings: proves the URL and key work. */
export async function test(
  s: ProvidersState,
  caller: UserCaller,
  id: string,
  domain?: string,
): Promise<ProviderTestResult> {
  const domainId = await adminDomain(s, caller, domain);
  const entry = domainEntry(s, await configOf(s, domainId, id));
  try {
    const models = await listProviderModels(entry.spec, AbortSignal.timeout(LIST_TIMEOUT_MS));
    s.modelCache.set(entry.cacheKey, { at: Date.now(), ttl: MODELS_TTL_MS, models });
    return { ok: true, models };
  } catch (err) {
    const failure = providerFailureOf(err);
    return { ok: false, models: [], message: describeProviderError(err), failure };
  }
}
