import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import { asLanguageModelUsage } from 'ai/internal';
import type { ModelUsage } from './model-calls.ts';

/**
 * A provider's usage as an answer stores it, with what came from the provider's cache and what went
 * to reasoning for the ledger (docs/ARCHITECTURE.md#usage-prices-and-budgets); undefined when the
 * provider reported none.
 */
export function usageOf(raw: LanguageModelV3Usage): ModelUsage | undefined {
  const u = asLanguageModelUsage(raw);
  if (u.inputTokens === undefined && u.outputTokens === undefined && u.totalTokens === undefined) {
    return undefined;
  }
  const inputTokens = u.inputTokens ?? 0;
  const outputTokens = u.outputTokens ?? 0;
  const cached = u.inputTokenDetails?.cacheReadTokens;
  const reasoning = u.outputTokenDetails?.reasoningTokens;
  return {
    inputTokens,
    outputTokens,
    totalTokens: u.totalTokens ?? inputTokens + outputTokens,
    ...(cached ? { cachedInputTokens: cached } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}
