import { CACHE_MS, type PriceRow, type UsageState } from './state.ts';

/** Tokens of one call as the ledger counts them (the provider's report, or the reservation's estimate). */
export interface CallTokens {
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those the provider read from its cache (priced at the cached rate when set). */
  cachedInputTokens?: number;
  /** Of `outputTokens`, the reasoning ones: priced as output, reported apart. */
  reasoningTokens?: number;
  /** Images made (an image model's call), priced per image. */
  images?: number;
}

/** Whether `price` prices everything the call used: images need a price per image. */
export const pricesAll = (price: PriceRow, t: Pick<CallTokens, 'images'>) =>
  !t.images || price.perImageMicros !== null;

/**
 * What a call costs at `price`, in micros, rounded half up once per call. Integer arithmetic
 * (BigInt): tokens × micros-per-million can pass 2^53 on a large call with a large price.
 */
export function costMicros(price: PriceRow, t: CallTokens): number {
  const cached = Math.min(t.cachedInputTokens ?? 0, t.inputTokens);
  const cachedRate = price.cachedInputPerMillionMicros ?? price.inputPerMillionMicros;
  const perMillion =
    BigInt(t.inputTokens - cached) * BigInt(price.inputPerMillionMicros) +
    BigInt(cached) * BigInt(cachedRate) +
    BigInt(t.outputTokens) * BigInt(price.outputPerMillionMicros) +
    BigInt(t.images ?? 0) * BigInt(price.perImageMicros ?? 0) * 1_000_000n;
  return Number((perMillion + 500_000n) / 1_000_000n);
}

/** Every price row by model, oldest first (cached for CACHE_MS, dropped on a price change). */
export async function priceRows(s: UsageState): Promise<Map<string, PriceRow[]>> {
  if (s.prices && s.prices.until > Date.now()) return s.prices.rows;
  const rows = new Map<string, PriceRow[]>();
  for (const row of await s.store.allPrices()) {
    const list = rows.get(row.model) ?? [];
    list.push(row);
    rows.set(row.model, list);
  }
  s.prices = { rows, until: Date.now() + CACHE_MS };
  return rows;
}

/** The price of `model` in force at `at`; undefined when it had none then (unknown, not free). */
export async function priceAt(s: UsageState, model: string, at: Date): Promise<PriceRow | undefined> {
  const list = (await priceRows(s)).get(model) ?? [];
  let found: PriceRow | undefined;
  for (const row of list) if (row.effectiveFrom <= at) found = row;
  return found;
}
