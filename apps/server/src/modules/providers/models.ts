import type { ModelInfo, ModelList, ProviderKind } from '@assistente/contracts';
import type { Caller, UserCaller } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import type { AccountCaller } from '../../lib/policy.ts';
import { assertOpen, gateFor, gateOf, type ModelGate } from './access.ts';
import { describeProviderError, modelNotAllowed, modelUnavailable, noProvider } from './errors.ts';
import { isChatModel, listProviderModels, type ModelTarget, type ProviderSpec } from './factory.ts';
import { entriesFor, type ProviderEntry, type ProvidersState, settingsOf } from './state.ts';

export const MODELS_TTL_MS = 5 * 60_000;
const MODELS_FAIL_TTL_MS = 30_000;
export const LIST_TIMEOUT_MS = 10_000;

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

function splitModelId(id: string): { provider: string; name: string } | undefined {
  const i = id.indexOf(':');
  if (i <= 0 || i === id.length - 1) return undefined;
  return { provider: id.slice(0, i), name: id.slice(i + 1) };
}

/** The models of one provider: the curated list, else the provider's own list (cached). */
async function modelsOf(s: ProvidersState, entry: ProviderEntry): Promise<string[]> {
  if (entry.curated.length > 0) return entry.curated;
  const hit = s.modelCache.get(entry.cacheKey);
  if (hit && Date.now() - hit.at < hit.ttl) return hit.models;
  let models: string[] = [];
  let ttl = MODELS_TTL_MS;
  try {
    models = await listProviderModels(entry.spec, AbortSignal.timeout(LIST_TIMEOUT_MS));
  } catch (err) {
    ttl = MODELS_FAIL_TTL_MS;
    s.ctx.log.warn(
      { provider: entry.provider, reason: describeProviderError(err) },
      'cannot list provider models',
    );
  }
  if (s.modelCache.size > 1000) s.modelCache.clear();
  s.modelCache.set(entry.cacheKey, { at: Date.now(), ttl, models });
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

/** `wanted` (`provider:model`) if one of `entries` offers it. */
export function pick(entries: ProviderEntry[], wanted: string): ResolvedModel | undefined {
  const parts = splitModelId(wanted);
  const entry = parts && findEntry(entries, parts.provider);
  if (!parts || !entry) return undefined;
  if (entry.curated.length > 0 && !entry.curated.includes(parts.name)) return undefined;
  return resolvedOf(entry, parts.name);
}

/** The gate's view of a resolved model. */
const accessOf = (m: ResolvedModel) => ({ modelId: m.modelId, kind: m.target.kind });

/**
 * The model a chat that chooses none gets: the domain's default, else DEFAULT_MODEL, else the
 * first model listed, skipping those the caller's `gate` closes (docs/ARCHITECTURE.md#model-access).
 * A default whose provider was removed is skipped, so what the settings show as in effect is
 * what chats use.
 */
export async function defaultModelOf(
  s: ProvidersState,
  domainId: string,
  entries: ProviderEntry[],
  gate: ModelGate = () => true,
): Promise<ResolvedModel | undefined> {
  for (const wanted of [(await settingsOf(s, domainId)).defaultModel, s.ctx.config.DEFAULT_MODEL]) {
    const chosen = wanted ? pick(entries, wanted) : undefined;
    if (chosen && gate(accessOf(chosen))) return chosen;
  }
  for (const entry of entries) {
    const name = (await modelsOf(s, entry)).find(
      (m) => isChatModel(m) && gate({ modelId: `${entry.provider}:${m}`, kind: entry.kind }),
    );
    if (name) return resolvedOf(entry, name);
  }
  return undefined;
}

/** The names of the providers a domain's models may come from, by provider id (no network). */
export async function providerLabels(s: ProvidersState, domainId: string): Promise<Map<string, string>> {
  return new Map((await entriesFor(s, domainId)).map((e) => [e.provider, e.label]));
}

/** Every chat model of the caller's domain the caller may use, and the default one. */
export async function models(s: ProvidersState, caller: AccountCaller): Promise<ModelList> {
  const entries = await entriesFor(s, caller.domain.id);
  const gate = await gateFor(s, caller);
  const lists = await Promise.all(entries.map((e) => modelsOf(s, e)));
  const found: ModelInfo[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    for (const name of lists[i] ?? []) {
      const id = `${entry.provider}:${name}`;
      if (seen.has(id) || !isChatModel(name) || !gate({ modelId: id, kind: entry.kind })) continue;
      seen.add(id);
      found.push({
        id,
        name,
        provider: entry.provider,
        providerLabel: entry.label,
        kind: entry.kind,
        source: entry.source,
      });
    }
  });
  return {
    models: found,
    defaultModel: (await defaultModelOf(s, caller.domain.id, entries, gate))?.modelId ?? null,
  };
}

/**
 * A model a santito may be pinned to: one a configured provider of the caller's domain offers
 * (400 otherwise, as for the default model) and the caller may use (MODEL_NOT_ALLOWED).
 */
export async function assertUsable(s: ProvidersState, caller: UserCaller, modelId: string): Promise<void> {
  const chosen = pick(await entriesFor(s, caller.domain.id), modelId);
  if (!chosen) throw invalidField('model', 'No configured provider offers this model');
  assertOpen(await gateFor(s, caller), accessOf(chosen));
}

/**
 * The AI SDK model for `modelId` (chat params, santito, `/v1`), else the domain's default (see
 * `defaultModelOf`). A `modelId` no provider offers throws MODEL_UNAVAILABLE, or with
 * `orDefault` gets the default instead (a santito whose model was removed stays usable). A
 * model the domain's rules close to the caller throws MODEL_NOT_ALLOWED, a santito's too
 * (docs/ARCHITECTURE.md#model-access). Throws NO_PROVIDER when nothing is configured.
 */
export async function resolveModel(
  s: ProvidersState,
  caller: Caller,
  modelId?: string | null,
  orDefault = false,
): Promise<ResolvedModel> {
  const { entries: own, modelAccess } = await settingsOf(s, caller.domain.id);
  const entries = [...own, ...s.instanceEntries];
  if (entries.length === 0) throw noProvider();
  const gate = gateOf(modelAccess, caller);
  if (modelId) {
    const chosen = pick(entries, modelId);
    if (chosen) {
      assertOpen(gate, accessOf(chosen));
      return chosen;
    }
    if (!orDefault) throw modelUnavailable(modelId);
  }
  const fallback = await defaultModelOf(s, caller.domain.id, entries, gate);
  if (fallback) return fallback;
  // Models exist, but none is open to the caller.
  const closed = await defaultModelOf(s, caller.domain.id, entries);
  if (closed) throw modelNotAllowed(closed.modelId);
  throw noProvider();
}

/** Image models as providers list them (OpenAI's, Imagen, FLUX, Stable Diffusion). */
const IMAGE = /(dall-e|gpt-image|imagen|flux|stable-diffusion|sdxl)/i;

/**
 * The image model a domain's `generate_image` uses: IMAGE_MODEL when a provider of the domain
 * offers its provider, else the first provider that lists one and whose kind makes images.
 * Undefined when none can (the tool is then not offered).
 */
export async function imageModel(s: ProvidersState, domainId: string): Promise<EmbeddingTarget | undefined> {
  const entries = (await entriesFor(s, domainId)).filter((e) => IMAGE_KINDS.includes(e.kind));
  const wanted = s.ctx.config.IMAGE_MODEL ? splitModelId(s.ctx.config.IMAGE_MODEL) : undefined;
  if (wanted) {
    const entry = findEntry(entries, wanted.provider);
    if (entry) return { spec: entry.spec, name: wanted.name, modelId: `${entry.provider}:${wanted.name}` };
  }
  for (const entry of entries) {
    const name = (await modelsOf(s, entry)).find((m) => IMAGE.test(m));
    if (name) return { spec: entry.spec, name, modelId: `${entry.provider}:${name}` };
  }
  return undefined;
}

const IMAGE_KINDS: readonly ProviderKind[] = ['openai', 'openai-compatible', 'google'];

/**
 * The embedding model a domain's knowledge uses (docs/ARCHITECTURE.md#knowledge): EMBEDDING_MODEL when a provider
 * of the domain offers its provider, else the first provider with a known or listed embedding
 * model. Undefined when none can embed (knowledge then indexes for keyword search only).
 */
export async function embeddingModel(
  s: ProvidersState,
  domainId: string,
): Promise<EmbeddingTarget | undefined> {
  const entries = await entriesFor(s, domainId);
  const { EMBEDDING_MODEL } = s.ctx.config;
  const wanted = EMBEDDING_MODEL ? splitModelId(EMBEDDING_MODEL) : undefined;
  if (wanted) {
    const entry = findEntry(entries, wanted.provider);
    if (entry) return { spec: entry.spec, name: wanted.name, modelId: `${entry.provider}:${wanted.name}` };
  }
  for (const entry of entries) {
    const name =
      KNOWN_EMBEDDING_MODELS[entry.kind] ?? (await modelsOf(s, entry)).find((m) => EMBEDDING.test(m));
    if (name) return { spec: entry.spec, name, modelId: `${entry.provider}:${name}` };
  }
  return undefined;
}
