import { type ModelAccessRules, OPEN_MODEL_ACCESS, type ProviderKind } from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import type { UserCaller } from '../../lib/caller.ts';
import { type SecretBox, secretBoxFor } from '../../lib/secrets.ts';
import { createGuardedHttp } from '../../lib/ssrf.ts';
import { existingActingDomain } from '../accounts/index.ts';
import type { ProviderSpec } from './factory.ts';
import { authorize } from './policy.ts';
import { type ProviderConfigRow, type ProvidersStore, providersStore } from './store.ts';

/** One provider a caller's domain can use: a domain configuration or an instance-wide env one. */
export interface ProviderEntry {
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

/** What a chat send needs of a domain's provider settings. */
export interface DomainSettings {
  entries: ProviderEntry[];
  defaultModel: string | null;
  modelAccess: ModelAccessRules;
}

/**
 * What every providers operation shares (docs/ARCHITECTURE.md#service-style): built once per app,
 * it owns the guarded HTTP agents and the caches.
 */
export interface ProvidersState {
  ctx: AppContext;
  store: ProvidersStore;
  box: SecretBox;
  guard: ReturnType<typeof createGuardedHttp>;
  modelCache: Map<string, { at: number; ttl: number; models: string[] }>;
  /** Per domain: its enabled configurations as entries, its own default model and its model access rules. */
  settingsCache: Map<string, DomainSettings & { at: number }>;
  /** Instance-wide providers from the environment. */
  instanceEntries: ProviderEntry[];
  unsubscribe: () => void;
}

/** Bus channel: a domain's provider settings changed (`{ domain }`), drop them from every replica's cache. */
const PROVIDERS_CHANGED = 'providers.changed';

/** How long a domain's provider settings are reused without asking the database. */
const SETTINGS_TTL_MS = 30_000;

export function createProvidersState(ctx: AppContext): ProvidersState {
  const settingsCache: ProvidersState['settingsCache'] = new Map();
  const unsubscribe = ctx.bus.subscribe(PROVIDERS_CHANGED, (msg) => {
    const domain = (msg as { domain?: unknown } | undefined)?.domain;
    if (typeof domain === 'string') settingsCache.delete(domain);
  });
  return {
    ctx,
    store: providersStore(ctx.db),
    box: secretBoxFor(ctx.config),
    guard: createGuardedHttp({ allowlist: ctx.config.PROVIDER_URL_ALLOWLIST }),
    modelCache: new Map(),
    settingsCache,
    instanceEntries: instanceEntries(ctx.config),
    unsubscribe,
  };
}

/** Instance-wide providers from the environment: trusted, so they use the platform's fetch. */
function instanceEntries(config: AppContext['config']): ProviderEntry[] {
  const entries: ProviderEntry[] = [];
  if (config.OPENAI_API_KEY || config.OPENAI_BASE_URL) {
    entries.push({
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
    entries.push({
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
    entries.push({
      provider: 'ollama',
      label: 'Ollama',
      kind: 'ollama',
      source: 'instance',
      spec: { kind: 'ollama', baseUrl: config.OLLAMA_BASE_URL, fetch: globalThis.fetch },
      curated: [],
      cacheKey: 'env:ollama',
    });
  }
  return entries;
}

/** After a change: drop the domain's settings here at once and on the other replicas. */
export async function changed(s: ProvidersState, domainId: string): Promise<void> {
  s.settingsCache.delete(domainId);
  await s.ctx.bus.publish(PROVIDERS_CHANGED, { domain: domainId }).catch((err: unknown) => {
    s.ctx.log.warn({ err }, 'could not publish a provider settings change');
  });
}

/** The domain's settings, cached briefly: every chat send needs them. */
export async function settingsOf(s: ProvidersState, domainId: string): Promise<DomainSettings> {
  const hit = s.settingsCache.get(domainId);
  if (hit && Date.now() - hit.at < SETTINGS_TTL_MS) return hit;
  const [rows, ai] = await Promise.all([s.store.list(domainId), s.store.aiSettings(domainId)]);
  const fresh = {
    at: Date.now(),
    entries: rows.filter((r) => r.enabled).map((r) => domainEntry(s, r)),
    defaultModel: ai.defaultModel,
    modelAccess: ai.modelAccess ?? OPEN_MODEL_ACCESS,
  };
  if (s.settingsCache.size > 10_000) s.settingsCache.clear();
  s.settingsCache.set(domainId, fresh);
  return fresh;
}

/** The domain an Admin acts on: their own, or any for a SuperAdmin (`?domain=`). */
export async function adminDomain(
  s: ProvidersState,
  caller: UserCaller,
  requested?: string,
): Promise<string> {
  authorize(caller, 'manage', caller.domain.id, 'Only Admins manage AI providers');
  return existingActingDomain(s.ctx.db, caller, requested);
}

function openKey(s: ProvidersState, row: ProviderConfigRow): string | null {
  if (!row.apiKeyEnc) return null;
  try {
    return s.box.open(row.apiKeyEnc, row.id);
  } catch (err) {
    // A changed SECRET_KEY makes stored keys unreadable: the provider then fails like a bad key.
    s.ctx.log.error({ err, provider: row.id }, 'cannot decrypt a provider API key (was SECRET_KEY changed?)');
    return null;
  }
}

export function domainEntry(s: ProvidersState, row: ProviderConfigRow): ProviderEntry {
  return {
    provider: row.id,
    label: row.label,
    kind: row.kind,
    source: 'domain',
    spec: { kind: row.kind, baseUrl: row.baseUrl, apiKey: openKey(s, row), fetch: s.guard.fetch },
    curated: row.models,
    cacheKey: `${row.id}:${row.updatedAt.getTime()}`,
  };
}

export async function entriesFor(s: ProvidersState, domainId: string): Promise<ProviderEntry[]> {
  return [...(await settingsOf(s, domainId)).entries, ...s.instanceEntries];
}

export async function close(s: ProvidersState): Promise<void> {
  s.unsubscribe();
  await s.guard.close();
}
