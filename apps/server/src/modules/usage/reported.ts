import type { CallTokens } from './costing.ts';
import { estimateTokens } from './tokens.ts';

/**
 * A call's tokens: the provider's report when it made one, else an estimate from the texts (a
 * stopped stream, a provider without usage), so an unreported call never counts as free.
 */
export async function tokensOf(
  reported: CallTokens | undefined,
  texts: { input: () => string | readonly string[]; output: string },
): Promise<CallTokens> {
  if (reported) return reported;
  const [inputTokens, outputTokens] = await Promise.all([
    estimateTokens(texts.input()),
    estimateTokens(texts.output),
  ]);
  return { inputTokens, outputTokens };
}
