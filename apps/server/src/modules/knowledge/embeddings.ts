import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { embedMany } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { effectiveBaseUrl } from '../providers/factory.ts';
import type { EmbeddingTarget } from '../providers/index.ts';

/** Texts per embeddings request: large enough to amortise the round trip, small enough for any provider. */
const BATCH = 64;

/** The AI SDK embedding model of a target (through its guarded fetch for Admin-set URLs). */
function embeddingModelOf(target: EmbeddingTarget): EmbeddingModelV3 {
  const { spec, name } = target;
  const baseURL = effectiveBaseUrl(spec);
  const apiKey = spec.apiKey ?? '';
  switch (spec.kind) {
    case 'openai':
      return createOpenAI({ apiKey, baseURL, fetch: spec.fetch }).embedding(name);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        ...(spec.apiKey ? { apiKey: spec.apiKey } : {}),
        fetch: spec.fetch,
      }).embeddingModel(name);
    case 'google':
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch: spec.fetch }).embedding(name);
    case 'ollama':
      return createOllama({ baseURL, fetch: spec.fetch }).embedding(name);
    case 'anthropic':
      throw new Error('Anthropic offers no embedding model');
    default:
      throw new Error(`Unknown provider kind ${String(spec.kind satisfies never)}`);
  }
}

/** Scales a vector to unit length, so a dot product is the cosine similarity. */
export function normalise(v: readonly number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  return v.map((x) => x / norm);
}

/** Unit-length embeddings of `texts`, in order, batched. */
export async function embedTexts(
  target: EmbeddingTarget,
  texts: string[],
  signal?: AbortSignal,
): Promise<number[][]> {
  if (texts.length === 0) return [];
  const model = embeddingModelOf(target);
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const { embeddings } = await embedMany({
      model,
      values: texts.slice(i, i + BATCH),
      maxRetries: 2,
      ...(signal ? { abortSignal: signal } : {}),
    });
    for (const e of embeddings) out.push(normalise(e));
  }
  return out;
}
