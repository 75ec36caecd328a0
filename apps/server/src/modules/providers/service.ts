import { randomBytes } from 'node:crypto';
import {
  type AiSettings,
  type AiSettingsUpdate,
  type ModelInfo,
  type ModelList,
  type ProviderConfig,
  type ProviderConfigCreate,
  type ProviderConfigUpdate,
  type ProviderKind,
  ProviderKindsNeedingApiKey,
  ProviderKindsNeedingBaseUrl,
  type ProviderTestResult,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { Caller, UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import type { AccountCaller } from '../../lib/policy.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { assertFieldUrlAllowed, createGuardedHttp } from '../../lib/ssrf.ts';
import { existingActingDomain } from '../accounts/index.ts';
import { type AuditMeta, type AuditRecord, auditedTransaction, changedFields } from '../audit/index.ts';
import {
  describeProviderError,
  modelUnavailable,
  noProvider,
  providerFailureOf,
  providerNotFound,
} from './errors.ts';
import {
  effectiveBaseUrl,
  isChatModel,
  listProviderModels,
  type ModelTarget,
  type ProviderSpec,
} from './factory.ts';
import { authorize } from './policy.ts';
import {
  type ProviderConfigPatch,
  type ProviderConfigRow,
  type ProvidersStore,
  providersStore,
} from './store.ts';

/** One provider a caller's domain can use: a domain configuration or an instance-wide env one. */
interface ProviderEntry {
  /** The `provider` part of model ids: the config id, or the env provider's name. */
  provider: string;
  label: string;
  kind: ProviderKind;
  source: 'domain' | 'instance';
  spec: ProviderSpec;
  /** The Admin's curated list; empty = what the provider lists. */
  curated: string[];
  cacheKey: string;
}

/** The entry's model `name`, ready for a model worker, with its `provider:model` id. */
function resolvedOf(entry: ProviderEntry, name: string): ResolvedModel {
  return { target: targetOf(entry, name), modelId: `${entry.provider}:${name}` };
}

/** What a model worker needs to call the entry's model `name`. */
function targetOf(entry: ProviderEntry, name: string): ModelTarget {
  return {
    kind: entry.spec.kind,
    baseUrl: entry.spec.baseUrl ?? null,
    apiKey: entry.spec.apiKey ?? null,
    guarded: entry.source === 'domain',
    name,
  };
}

/** Providers with a well-known embedding model (their model lists leave embeddings out). */
const KNOWN_EMBEDDING_MODELS: Partial<Record<ProviderKind, string>> = {
  openai: 'text-embedding-3-small',
  google: 'text-embedding-004',
};
const EMBEDDING = /embed/i;

/** The provider and model that turn a domain's knowledge into vectors. */
export interface EmbeddingTarget {
  spec: ProviderSpec;
  name: string;
  /** `provider:model`: chunks embedded by another model are not compared with this one's. */
  modelId: string;
}

export interface ResolvedModel {
  target: ModelTarget;
  /** `provider:model`, stored on the answer. */
  modelId: string;
}

/** Bus channel: a domain's provider settings changed (`{ domain }`), drop them from every replica's cache. */
const PROVIDERS_CHANGED = 'providers.changed';

/** How long a domain's provider settings are reused without asking the database. */
const SETTINGS_TTL_MS = 30_000;
const MODELS_TTL_MS = 5 * 60_000;
const MODELS_FAIL_TTL_MS = 30_000;
const LIST_TIMEOUT_MS = 10_000;

const newProviderId = () => `p${randomBytes(6).toString('hex')}`;

/** The last 4 characters of a key long enough that 4 characters give nothing away. */
const keyHint = (key: string) => (key.length >= 12 ? key.slice(-4) : null);

function toDto(row: ProviderConfigRow): ProviderConfig {
  return {
    id: row.id,
    domain: row.domainId,
    kind: row.kind,
    label: row.label,
    baseUrl: row.baseUrl,
    hasApiKey: Boolean(row.apiKeyEnc),
    apiKeyHint: row.apiKeyHint,
    models: row.models,
    enabled: row.enabled,
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

function splitModelId(id: string): { provider: string; name: string } | undefined {
  const i = id.indexOf(':');
  if (i <= 0 || i === id.length - 1) return undefined;
  return { provider: id.slice(0, i), name: id.slice(i + 1) };
}

/** The providers service (built once per app: it owns the guarded HTTP agents and caches). */
export function createProvidersService(
  ctx: AppContext,
  store: ProvidersStore = providersStore(ctx.db),
  box: SecretBox = secretBoxFor(ctx.config),
) {
  const { config } = ctx;
  const guard = createGuardedHttp({ allowlist: config.PROVIDER_URL_ALLOWLIST });
  const modelCache = new Map<string, { at: number; ttl: number; models: string[] }>();
  /** Per domain: its enabled configurations as entries, and its own default model. */
  const settingsCache = new Map<
    string,
    { at: number; entries: ProviderEntry[]; defaultModel: string | null }
  >();
  const unsubscribe = ctx.bus.subscribe(PROVIDERS_CHANGED, (msg) => {
    const domain = (msg as { domain?: unknown } | undefined)?.domain;
    if (typeof domain === 'string') settingsCache.delete(domain);
  });

  /** After a change: drop the domain's settings here at once and on the other replicas. */
  async function changed(domainId: string): Promise<void> {
    settingsCache.delete(domainId);
    await ctx.bus.publish(PROVIDERS_CHANGED, { domain: domainId }).catch((err: unknown) => {
      ctx.log.warn({ err }, 'could not publish a provider settings change');
    });
  }

  /** The domain's settings, cached briefly: every chat send needs them. */
  async function settingsOf(
    domainId: string,
  ): Promise<{ entries: ProviderEntry[]; defaultModel: string | null }> {
    const hit = settingsCache.get(domainId);
    if (hit && Date.now() - hit.at < SETTINGS_TTL_MS) return hit;
    const [rows, defaultModel] = await Promise.all([store.list(domainId), store.defaultModel(domainId)]);
    const fresh = { at: Date.now(), entries: rows.filter((r) => r.enabled).map(domainEntry), defaultModel };
    if (settingsCache.size > 10_000) settingsCache.clear();
    settingsCache.set(domainId, fresh);
    return fresh;
  }

  /** The domain an Admin acts on: their own, or any for a SuperAdmin (`?domain=`). */
  async function adminDomain(caller: UserCaller, requested?: string): Promise<string> {
    authorize(caller, 'manage', caller.domain.id, 'Only Admins manage AI providers');
    return existingActingDomain(ctx.db, caller, requested);
  }

  /** Refuses an Admin-set URL that breaks the SSRF rule, with a message the Admin can act on. */
  async function checkBaseUrl(url: string | null | undefined): Promise<void> {
    if (url) await assertFieldUrlAllowed('baseUrl', url, config.PROVIDER_URL_ALLOWLIST);
  }

  function openKey(row: ProviderConfigRow): string | null {
    if (!row.apiKeyEnc) return null;
    try {
      return box.open(row.apiKeyEnc, row.id);
    } catch (err) {
      // A changed SECRET_KEY makes stored keys unreadable: the provider then fails like a bad key.
      ctx.log.error({ err, provider: row.id }, 'cannot decrypt a provider API key (was SECRET_KEY changed?)');
      return null;
    }
  }

  function domainEntry(row: ProviderConfigRow): ProviderEntry {
    return {
      provider: row.id,
      label: row.label,
      kind: row.kind,
      source: 'domain',
      spec: { kind: row.kind, baseUrl: row.baseUrl, apiKey: openKey(row), fetch: guard.fetch },
      curated: row.models,
      cacheKey: `${row.id}:${row.updatedAt.getTime()}`,
    };
  }

  /** Instance-wide providers from the environment: trusted, so they use the platform's fetch. */
  const instanceEntries: ProviderEntry[] = [];
  if (config.OPENAI_API_KEY || config.OPENAI_BASE_URL) {
    instanceEntries.push({
      provider: 'openai',
      label: config.OPENAI_BASE_URL ? 'OpenAI-compatible' : 'OpenAI',
      // With OPENAI_BASE_URL, the OpenAI-compatible Chat Completions API (Ollama, vLLM, LM Studio…).
      kind: config.OPENAI_BASE_URL ? 'openai-compatible' : 'openai',
      source: 'instance',
      spec: {
        kind: config.OPENAI_BASE_URL ? 'openai-compatible' : 'openai',
        baseUrl: config.OPENAI_BASE_URL ?? null,
        apiKey: config.OPENAI_API_KEY ?? null,
        fetch: globalThis.fetch,
      },
      curated: [],
      cacheKey: 'env:openai',
    });
  }
  if (config.ANTHROPIC_API_KEY) {
    instanceEntries.push({
      provider: 'anthropic',
      label: 'Anthropic',
      kind: 'anthropic',
      source: 'instance',
      spec: { kind: 'anthropic', apiKey: config.ANTHROPIC_API_KEY, fetch: globalThis.fetch },
      curated: [],
      cacheKey: 'env:anthropic',
    });
  }
  if (config.OLLAMA_BASE_URL) {
    instanceEntries.push({
      provider: 'ollama',
      label: 'Ollama',
      kind: 'ollama',
      source: 'instance',
      spec: { kind: 'ollama', baseUrl: config.OLLAMA_BASE_URL, fetch: globalThis.fetch },
      curated: [],
      cacheKey: 'env:ollama',
    });
  }

  async function entriesFor(domainId: string): Promise<ProviderEntry[]> {
    return [...(await settingsOf(domainId)).entries, ...instanceEntries];
  }

  /** The models of one provider: the curated list, else the provider's own list (cached). */
  async function modelsOf(entry: ProviderEntry): Promise<string[]> {
    if (entry.curated.length > 0) return entry.curated;
    const hit = modelCache.get(entry.cacheKey);
    if (hit && Date.now() - hit.at < hit.ttl) return hit.models;
    let models: string[] = [];
    let ttl = MODELS_TTL_MS;
    try {
      models = await listProviderModels(entry.spec, AbortSignal.timeout(LIST_TIMEOUT_MS));
    } catch (err) {
      ttl = MODELS_FAIL_TTL_MS;
      ctx.log.warn(
        { provider: entry.provider, reason: describeProviderError(err) },
        'cannot list provider models',
      );
    }
    if (modelCache.size > 1000) modelCache.clear();
    modelCache.set(entry.cacheKey, { at: Date.now(), ttl, models });
    return models;
  }

  /** Which entry a `provider` name means: a config id, else a kind (first such config), else an env name. */
  function findEntry(entries: ProviderEntry[], provider: string): ProviderEntry | undefined {
    return (
      entries.find((e) => e.source === 'domain' && e.provider === provider) ??
      entries.find((e) => e.source === 'domain' && e.kind === provider) ??
      entries.find((e) => e.source === 'instance' && e.provider === provider)
    );
  }

  /** Runs a change and writes its audit entry in one transaction: both happen, or neither. */
  function inTransaction<T>(
    caller: UserCaller,
    meta: AuditMeta,
    run: (s: ProvidersStore) => Promise<{ result: T; audit: AuditRecord }>,
  ): Promise<T> {
    return auditedTransaction(ctx.db, caller, meta, providersStore, run);
  }

  /** `wanted` (`provider:model`) if one of `entries` offers it. */
  function pick(entries: ProviderEntry[], wanted: string): ResolvedModel | undefined {
    const parts = splitModelId(wanted);
    const entry = parts && findEntry(entries, parts.provider);
    if (!parts || !entry) return undefined;
    if (entry.curated.length > 0 && !entry.curated.includes(parts.name)) return undefined;
    return resolvedOf(entry, parts.name);
  }

  /**
   * The model a chat that chooses none gets: the domain's default, else DEFAULT_MODEL, else the
   * first model listed. A default whose provider was removed is skipped, so what the settings
   * show as in effect is what chats use.
   */
  async function defaultModelOf(
    domainId: string,
    entries: ProviderEntry[],
  ): Promise<ResolvedModel | undefined> {
    for (const wanted of [(await settingsOf(domainId)).defaultModel, config.DEFAULT_MODEL]) {
      const chosen = wanted ? pick(entries, wanted) : undefined;
      if (chosen) return chosen;
    }
    for (const entry of entries) {
      const name = (await modelsOf(entry)).find(isChatModel);
      if (name) return resolvedOf(entry, name);
    }
    return undefined;
  }

  return {
    async list(caller: UserCaller, domain?: string): Promise<ProviderConfig[]> {
      const domainId = await adminDomain(caller, domain);
      return (await store.list(domainId)).map(toDto);
    },

    async create(
      caller: UserCaller,
      body: ProviderConfigCreate,
      meta: AuditMeta,
      domain?: string,
    ): Promise<ProviderConfig> {
      const domainId = await adminDomain(caller, domain);
      await checkBaseUrl(body.baseUrl);
      const id = newProviderId();
      const apiKey = body.apiKey?.trim() || null;
      const row = await inTransaction(caller, meta, async (s) => {
        const inserted = await s.insert({
          id,
          domainId,
          kind: body.kind,
          label: body.label,
          baseUrl: body.baseUrl ?? null,
          apiKeyEnc: apiKey ? box.seal(apiKey, id) : null,
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
      await changed(domainId);
      return toDto(row);
    },

    async update(
      caller: UserCaller,
      id: string,
      body: ProviderConfigUpdate,
      meta: AuditMeta,
      domain?: string,
    ): Promise<ProviderConfig> {
      const domainId = await adminDomain(caller, domain);
      const current = await store.find(domainId, id);
      if (!current) throw providerNotFound();
      const patch: ProviderConfigPatch = {};
      if (body.label !== undefined) patch.label = body.label;
      if (body.baseUrl !== undefined) {
        if (!body.baseUrl && ProviderKindsNeedingBaseUrl.includes(current.kind)) {
          throw invalidField('baseUrl', `A base URL is required for ${current.kind}`);
        }
        await checkBaseUrl(body.baseUrl);
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
        patch.apiKeyEnc = box.seal(key, current.id);
        patch.apiKeyHint = keyHint(key);
      }
      if (body.models !== undefined) patch.models = [...new Set(body.models)];
      if (body.enabled !== undefined) patch.enabled = body.enabled;
      const row = await inTransaction(caller, meta, async (s) => {
        const updated = await s.update(domainId, id, patch);
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
      await changed(domainId);
      return toDto(row);
    },

    async remove(caller: UserCaller, id: string, meta: AuditMeta, domain?: string): Promise<void> {
      const domainId = await adminDomain(caller, domain);
      const current = await store.find(domainId, id);
      if (!current) throw providerNotFound();
      const own = await store.defaultModel(domainId);
      // A default that only this provider offered would name a model nobody can use: it goes too.
      const remaining = (await entriesFor(domainId)).filter((e) => e.provider !== id);
      const clearDefault = own !== null && !pick(remaining, own);
      await inTransaction(caller, meta, async (s) => {
        if (!(await s.remove(domainId, id))) throw providerNotFound();
        if (clearDefault) await s.setDefaultModel(domainId, null);
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
      await changed(domainId);
    },

    /** Lists the provider's models with the stored settings: proves the URL and key work. */
    async test(caller: UserCaller, id: string, domain?: string): Promise<ProviderTestResult> {
      const domainId = await adminDomain(caller, domain);
      const row = await store.find(domainId, id);
      if (!row) throw providerNotFound();
      const entry = domainEntry(row);
      try {
        const models = await listProviderModels(entry.spec, AbortSignal.timeout(LIST_TIMEOUT_MS));
        modelCache.set(entry.cacheKey, { at: Date.now(), ttl: MODELS_TTL_MS, models });
        return { ok: true, models };
      } catch (err) {
        const failure = providerFailureOf(err);
        return { ok: false, models: [], message: describeProviderError(err), failure };
      }
    },

    /** The names of the providers a domain's models may come from, by provider id (no network). */
    async providerLabels(domainId: string): Promise<Map<string, string>> {
      return new Map((await entriesFor(domainId)).map((e) => [e.provider, e.label]));
    },

    /** Every chat model the caller's domain can use, and the default one. */
    async models(caller: AccountCaller): Promise<ModelList> {
      const entries = await entriesFor(caller.domain.id);
      const lists = await Promise.all(entries.map((e) => modelsOf(e)));
      const models: ModelInfo[] = [];
      const seen = new Set<string>();
      entries.forEach((entry, i) => {
        for (const name of lists[i] ?? []) {
          const id = `${entry.provider}:${name}`;
          if (seen.has(id) || !isChatModel(name)) continue;
          seen.add(id);
          models.push({
            id,
            name,
            provider: entry.provider,
            providerLabel: entry.label,
            kind: entry.kind,
            source: entry.source,
          });
        }
      });
      return { models, defaultModel: (await defaultModelOf(caller.domain.id, entries))?.modelId ?? null };
    },

    async getAiSettings(caller: UserCaller, domain?: string): Promise<AiSettings> {
      const domainId = await adminDomain(caller, domain);
      const own = await store.defaultModel(domainId);
      const entries = await entriesFor(domainId);
      return {
        domain: domainId,
        defaultModel: own,
        effectiveDefaultModel: (await defaultModelOf(domainId, entries))?.modelId ?? null,
      };
    },

    async putAiSettings(
      caller: UserCaller,
      body: AiSettingsUpdate,
      meta: AuditMeta,
      domain?: string,
    ): Promise<AiSettings> {
      const domainId = await adminDomain(caller, domain);
      // The rule chats resolve models by: a default they could not use would be silently skipped.
      if (body.defaultModel && !pick(await entriesFor(domainId), body.defaultModel)) {
        throw invalidField('defaultModel', 'No configured provider offers this model');
      }
      const before = await store.defaultModel(domainId);
      await inTransaction(caller, meta, async (s) => {
        await s.setDefaultModel(domainId, body.defaultModel);
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
      await changed(domainId);
      return this.getAiSettings(caller, domainId);
    },

    /** Whether a configured provider of the caller's domain offers `modelId` (santitos check theirs). */
    async offers(caller: UserCaller, modelId: string): Promise<boolean> {
      return pick(await entriesFor(caller.domain.id), modelId) !== undefined;
    },

    /**
     * The AI SDK model for `modelId` (chat params, santito), else the domain's default (see
     * `defaultModelOf`). A `modelId` no provider offers throws MODEL_UNAVAILABLE, or with
     * `orDefault` gets the default instead (a santito whose model was removed stays usable).
     * Throws NO_PROVIDER when nothing is configured.
     */
    async resolveModel(caller: Caller, modelId?: string | null, orDefault = false): Promise<ResolvedModel> {
      const entries = await entriesFor(caller.domain.id);
      if (entries.length === 0) throw noProvider();
      if (modelId) {
        const chosen = pick(entries, modelId);
        if (chosen) return chosen;
        if (!orDefault) throw modelUnavailable(modelId);
      }
      const fallback = await defaultModelOf(caller.domain.id, entries);
      if (!fallback) throw noProvider();
      return fallback;
    },

    /**
     * The embedding model a domain's knowledge uses (docs/ARCHITECTURE.md#knowledge): EMBEDDING_MODEL when a provider
     * of the domain offers its provider, else the first provider with a known or listed embedding
     * model. Undefined when none can embed (knowledge then indexes for keyword search only).
     */
    async embeddingModel(domainId: string): Promise<EmbeddingTarget | undefined> {
      const entries = await entriesFor(domainId);
      const wanted = config.EMBEDDING_MODEL ? splitModelId(config.EMBEDDING_MODEL) : undefined;
      if (wanted) {
        const entry = findEntry(entries, wanted.provider);
        if (entry)
          return { spec: entry.spec, name: wanted.name, modelId: `${entry.provider}:${wanted.name}` };
      }
      for (const entry of entries) {
        const name =
          KNOWN_EMBEDDING_MODELS[entry.kind] ?? (await modelsOf(entry)).find((m) => EMBEDDING.test(m));
        if (name) return { spec: entry.spec, name, modelId: `${entry.provider}:${name}` };
      }
      return undefined;
    },

    /** For display: where a configuration's requests go. */
    effectiveBaseUrl,

    close: async () => {
      unsubscribe();
      await guard.close();
    },
  };
}

export type ProvidersService = ReturnType<typeof createProvidersService>;
