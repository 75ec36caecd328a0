import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { embedMany } from 'ai';
import type { AppContext } from '../../context.ts';
import type { EmbeddingTarget } from '../providers/index.ts';
import { estimateTokens } from '../usage/index.ts';

/** Texts per embeddings request: large enough to amortise the round trip, small enough for any provider. */
const BATCH = 64;

/** The AI SDK embedding model of a target (through its guarded fetch for Admin-set URLs). */
async function embeddingModelOf(target: EmbeddingTarget): Promise<EmbeddingModelV3> {
  const { spec, name } = target;
  // On first use: a start loads no provider SDK (docs/ARCHITECTURE.md#build-and-run).
  const { sdkOf } = await import('../providers/sdk.ts');
  switch (spec.kind) {
    case 'openai':
      return sdkOf.openai(spec).embedding(name);
    case 'openai-compatible':
      return sdkOf.compatible(spec).embeddingModel(name);
    case 'google':
      return sdkOf.google(spec).embedding(name);
    case 'ollama':
      return sdkOf.ollama(spec).embedding(name);
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
  return (await embedWithUsage(target, texts, signal)).vectors;
}

/** As `embedTexts`, with the tokens the provider reported (undefined when a batch reported none). */
export async function embedWithUsage(
  target: EmbeddingTarget,
  texts: string[],
  signal?: AbortSignal,
): Promise<{ vectors: number[][]; tokens: number | undefined }> {
  if (texts.length === 0) return { vectors: [], tokens: 0 };
  const model = await embeddingModelOf(target);
  const out: number[][] = [];
  let tokens: number | undefined = 0;
  for (let i = 0; i < texts.length; i += BATCH) {
    const { embeddings, usage } = await embedMany({
      model,
      values: texts.slice(i, i + BATCH),
      maxRetries: 2,
      ...(signal ? { abortSignal: signal } : {}),
    });
    for (const e of embeddings) out.push(normalise(e));
    tokens = usage?.tokens && tokens !== undefined ? tokens + usage.tokens : undefined;
  }
  return { vectors: out, tokens };
}

/**
 * Embeds `texts` for `domainId` through the usage gate (docs/ARCHITECTURE.md#usage-prices-and-budgets):
 * one ledger row (source `embedding`, no user) with the provider's tokens, or an estimate from the
 * texts when it reported none; a call that failed lets go of its holds.
 */
export async function embedCounted(
  ctx: AppContext,
  domainId: string,
  target: EmbeddingTarget,
  texts: string[],
  signal?: AbortSignal,
): Promise<number[][]> {
  if (texts.length === 0) return [];
  const call = await ctx.services.usage.begin({
    entry: { domainId, source: 'embedding', model: target.modelId },
    estimate: { input: () => texts.join('\n'), maxOutputTokens: 0 },
  });
  let result: Awaited<ReturnType<typeof embedWithUsage>>;
  try {
    result = await embedWithUsage(target, texts, signal);
  } catch (err) {
    await call.release();
    throw err;
  }
  const inputTokens = result.tokens || (await estimateTokens(texts.join('\n')));
  // The vectors are paid for already: a ledger write that fails is logged, not the embedding's failure.
  await call
    .settle({ inputTokens, outputTokens: 0 })
    .catch((err: unknown) =>
      ctx.log.error({ err, domain: domainId }, 'knowledge: could not settle embeddings'),
    );
  return result.vectors;
}
