import type { ProviderKind } from '@assistente/contracts';

// The AI SDK's providers themselves are in sdk.ts, loaded on first use.

type FetchLike = typeof globalThis.fetch;

/** Everything needed to reach one provider. */
export interface ProviderSpec {
  kind: ProviderKind;
  baseUrl?: string | null;
  apiKey?: string | null;
  /** The SSRF-guarded fetch for Admin-set URLs; the platform's fetch for trusted env settings. */
  fetch: FetchLike;
}

/**
 * A model as the model workers build it: a provider spec without its fetch (functions do not
 * cross threads) and the model's name. `guarded`: an Admin-set URL, fetched under the SSRF rule.
 */
export interface ModelTarget {
  kind: ProviderKind;
  baseUrl: string | null;
  apiKey: string | null;
  guarded: boolean;
  name: string;
}

const DEFAULT_BASE: Partial<Record<ProviderKind, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** Ollama's root URL, however the Admin typed it (`…:11434`, `…/api`, `…/v1`). */
function ollamaRoot(baseUrl: string): string {
  return trimSlash(baseUrl).replace(/\/(api|v1)$/, '');
}

/** The base URL requests go to (used for display and the models list). */
export function effectiveBaseUrl(spec: Pick<ProviderSpec, 'kind' | 'baseUrl'>): string {
  if (spec.kind === 'ollama') return `${ollamaRoot(spec.baseUrl ?? 'http://127.0.0.1:11434')}/api`;
  return trimSlash(spec.baseUrl || DEFAULT_BASE[spec.kind] || '');
}

export function assertNever(x: never): never {
  throw new Error(`Unknown provider kind ${String(x)}`);
}

/** A provider answered with an HTTP error while listing models. */
export class ProviderHttpError extends Error {
  override name = 'ProviderHttpError';
  constructor(readonly status: number) {
    super(`The provider answered HTTP ${status}`);
  }
}

/** OpenAI lists embeddings, audio and image models too; a chat picker wants none of them. */
const NOT_CHAT =
  /(embed|whisper|tts|dall-e|moderation|davinci|babbage|transcribe|image|realtime|audio|search)/i;

/**
 * Embedding and reranking models every kind of server may list beside its chat models (Ollama's
 * nomic-embed-text, vLLM's bge-m3…): they answer no chat, so no chat picker offers them.
 */
const NOT_CHAT_ANY = /(embed|rerank|(^|[/:_-])bge-|minilm)/i;

/** Whether a listed model can hold a conversation (the knowledge indexer still finds the others). */
export const isChatModel = (name: string): boolean => !NOT_CHAT_ANY.test(name);

/** The models the provider itself lists (throws on failure). */
export async function listProviderModels(spec: ProviderSpec, signal?: AbortSignal): Promise<string[]> {
  const base = effectiveBaseUrl(spec);
  const get = async (url: string, headers: Record<string, string>): Promise<unknown> => {
    const res = await spec.fetch(url, { headers, ...(signal ? { signal } : {}) });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new ProviderHttpError(res.status);
    }
    return res.json();
  };
  switch (spec.kind) {
    case 'openai':
    case 'openai-compatible': {
      const body = (await get(
        `${base}/models`,
        spec.apiKey ? { authorization: `Bearer ${spec.apiKey}` } : {},
      )) as {
        data?: Array<{ id?: unknown }>;
      };
      const ids = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
      return (spec.kind === 'openai' ? ids.filter((id) => !NOT_CHAT.test(id)) : ids).sort();
    }
    case 'anthropic': {
      const body = (await get(`${base}/models?limit=1000`, {
        'x-api-key': spec.apiKey ?? '',
        'anthropic-version': '2023-06-01',
      })) as { data?: Array<{ id?: unknown }> };
      return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
    }
    case 'google': {
      const body = (await get(`${base}/models?pageSize=1000`, { 'x-goog-api-key': spec.apiKey ?? '' })) as {
        models?: Array<{ name?: unknown; supportedGenerationMethods?: unknown }>;
      };
      return (body.models ?? [])
        .filter(
          (m) =>
            Array.isArray(m.supportedGenerationMethods) &&
            m.supportedGenerationMethods.includes('generateContent'),
        )
        .map((m) => (typeof m.name === 'string' ? m.name.replace(/^models\//, '') : ''))
        .filter(Boolean);
    }
    case 'ollama': {
      const body = (await get(`${ollamaRoot(base)}/api/tags`, {})) as { models?: Array<{ name?: unknown }> };
      return (body.models ?? []).map((m) => m.name).filter((n): n is string => typeof n === 'string');
    }
    default:
      return assertNever(spec.kind);
  }
}
