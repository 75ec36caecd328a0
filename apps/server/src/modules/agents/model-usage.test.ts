import { describe, expect, it } from 'vitest';
import { usageOf } from './model-usage.ts';

describe('usageOf', () => {
  it('carries the provider’s cached input and reasoning tokens beside the totals', () => {
    expect(
      usageOf({
        inputTokens: { total: 1000, noCache: 400, cacheRead: 600, cacheWrite: undefined },
        outputTokens: { total: 300, text: 100, reasoning: 200 },
      }),
    ).toEqual({
      inputTokens: 1000,
      outputTokens: 300,
      totalTokens: 1300,
      cachedInputTokens: 600,
      reasoningTokens: 200,
    });
  });

  it('leaves them out when the provider did not report them, and is undefined without any usage', () => {
    expect(
      usageOf({
        inputTokens: { total: 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: undefined, reasoning: undefined },
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect(
      usageOf({
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      }),
    ).toBeUndefined();
  });
});
