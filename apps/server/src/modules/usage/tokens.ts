// Input tokens are estimated with a real tokenizer (o200k, OpenAI's current one) only when a
// budget covers the call; it loads lazily (≈0.4 s once) so a server without budgets never pays it.

type Counter = (text: string) => number;
let counter: Promise<Counter> | undefined;

/** Loads the tokenizer now (a budget exists), so the first covered send does not wait for it. */
export function warmTokenizer(): Promise<Counter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.countTokens);
  return counter;
}

/** Most characters of text whose counts are kept; past it, the counts are forgotten at once. */
const KEPT_CHARS = 4_000_000;
/** Shorter texts are counted again rather than kept: counting them costs less than keeping them. */
const KEPT_FROM_CHARS = 16;
const kept = new Map<string, number>();
let keptChars = 0;

function counted(count: Counter, text: string): number {
  if (text.length < KEPT_FROM_CHARS) return count(text);
  const hit = kept.get(text);
  if (hit !== undefined) return hit;
  const n = count(text);
  if (keptChars + text.length > KEPT_CHARS) {
    kept.clear();
    keptChars = 0;
  }
  kept.set(text, n);
  keptChars += text.length;
  return n;
}

/**
 * About how many tokens the model will read of `text` (or of its parts, each counted once and
 * kept: a conversation's earlier messages come back with every question, and counting the whole
 * history again each time cost milliseconds before the first token). Providers' tokenizers differ
 * by a few per cent; the reservation settles to what the provider reports, so this only has to be
 * close.
 */
export async function estimateTokens(text: string | readonly string[]): Promise<number> {
  const parts = typeof text === 'string' ? [text] : text;
  if (parts.every((p) => p.length === 0)) return 0;
  const count = await warmTokenizer();
  let n = 0;
  for (const p of parts) if (p.length > 0) n += counted(count, p);
  return n;
}
