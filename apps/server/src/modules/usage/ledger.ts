import type { UsageSource } from '@assistente/contracts';
import type { Tx } from '../../db/client.ts';
import { randomBase62 } from '../../lib/random-id.ts';
import { type CallTokens, costMicros, priceAt, pricesAll } from './costing.ts';
import { dayIn } from './periods.ts';
import { erasedKey } from './reports.ts';
import { type UsageState, zoneOf } from './state.ts';
import type { UsageEventInsert } from './store.ts';

/** Who made a settled model call, and through what: the ledger row's keys (never a name). */
export interface LedgerEntry {
  domainId: string;
  departmentId?: string | null;
  userId?: string | null;
  apiKeyId?: string | null;
  virtualAccountId?: string | null;
  santitoId?: string | null;
  source: UsageSource;
  /** `provider:model`. */
  model: string;
  tokens: CallTokens;
  /** When the call settled; now by default. */
  at?: Date;
}

/** What a settled call cost: null when the model had no price then. */
export interface Settled {
  eventId: string;
  costMicros: number | null;
}

/** A ledger row ready to write: priced and dated before any transaction opens. */
export interface PreparedEvent {
  event: UsageEventInsert & { at: Date };
  day: string;
}

/**
 * Prices a settled call (at the price in force then) and dates it in its domain's zone. Done before
 * the settling transaction: on PGlite that transaction holds the one connection these reads need.
 */
export async function prepare(s: UsageState, entry: LedgerEntry): Promise<PreparedEvent> {
  const at = entry.at ?? new Date();
  const [price, zone] = await Promise.all([priceAt(s, entry.model, at), zoneOf(s, entry.domainId)]);
  return {
    day: dayIn(zone, at),
    event: {
      id: `ue_${randomBase62(20)}`,
      at,
      domainId: entry.domainId,
      departmentId: entry.departmentId ?? null,
      userId: entry.userId ?? null,
      apiKeyId: entry.apiKeyId ?? null,
      virtualAccountId: entry.virtualAccountId ?? null,
      santitoId: entry.santitoId ?? null,
      source: entry.source,
      model: entry.model,
      inputTokens: entry.tokens.inputTokens,
      outputTokens: entry.tokens.outputTokens,
      cachedInputTokens: entry.tokens.cachedInputTokens ?? 0,
      reasoningTokens: entry.tokens.reasoningTokens ?? 0,
      images: entry.tokens.images ?? 0,
      costMicros: price && pricesAll(price, entry.tokens) ? costMicros(price, entry.tokens) : null,
      priceId: price?.id ?? null,
    },
  };
}

/** Writes a prepared row and its day's roll-up in `tx` (the transaction that settles the call). */
export async function write(s: UsageState, prepared: PreparedEvent, tx: Tx): Promise<Settled> {
  await s.store.addEvent(tx, prepared.event, prepared.day);
  return { eventId: prepared.event.id, costMicros: prepared.event.costMicros ?? null };
}

/** Writes one settled call to the ledger and its day's roll-up, in a transaction of its own. */
export async function record(s: UsageState, entry: LedgerEntry): Promise<Settled> {
  const prepared = await prepare(s, entry);
  return s.ctx.db.transaction((tx) => write(s, prepared, tx));
}

/**
 * Keeps an erased person's spending under a pseudonym (docs/ARCHITECTURE.md#export-and-erasure):
 * their ledger rows stay, keyed `deleted:<alias>`, so every report keeps its totals.
 */
export function pseudonymise(s: UsageState, userId: string): Promise<{ events: number; days: number }> {
  return s.store.pseudonymise(userId, erasedKey(userId));
}
