// Input tokens are estimated with a real tokenizer (o200k, OpenAI's current one) only when a
// budget covers the call; it loads lazily (≈0.4 s once) so a server without budgets never pays it.

type Counter = (text: string) => number;
let counter: Promise<Counter> | undefined;

/** Loads the tokenizer now (a budget exists), so the first covered send does not wait for it. */
export function warmTokenizer(): Promise<Counter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.countTokens);
  return counter;
}

/**
 * About how many tokens the model will read of `text`. Providers' tokenizers differ by a few per
 * cent; the reservation settles to what the provider reports, so this only has to be close.
 */
export async function estimateTokens(text: string): Promise<number> {
  if (text.length === 0) return 0;
  return (await warmTokenizer())(text);
}
