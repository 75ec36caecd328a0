import {
  fromMicros,
  type ModelPrice,
  type PriceInput,
  type PriceList,
  toMicros,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { randomBase62 } from '../../lib/random-id.ts';
import { type AuditMeta, recordAudit } from '../audit/index.ts';
import { priceRows } from './costing.ts';
import { authorize } from './policy.ts';
import { PRICES_CHANGED, type PriceRow, type UsageState } from './state.ts';

/*
 * Model prices (docs/ARCHITECTURE.md#usage-prices-and-budgets): instance-wide, effective-dated. A
 * change adds a row from now on; no row is ever rewritten, so past calls keep the cost they had.
 */

function toPrice(row: PriceRow): ModelPrice {
  return {
    id: row.id,
    model: row.model,
    inputPerMillion: fromMicros(row.inputPerMillionMicros),
    outputPerMillion: fromMicros(row.outputPerMillionMicros),
    ...(row.cachedInputPerMillionMicros !== null
      ? { cachedInputPerMillion: fromMicros(row.cachedInputPerMillionMicros) }
      : {}),
    ...(row.perImageMicros !== null ? { perImage: fromMicros(row.perImageMicros) } : {}),
    currency: row.currency,
    effectiveFrom: row.effectiveFrom.toISOString(),
    setBy: row.setBy,
  };
}

/** `GET /api/v1/usage/prices`: the price in force now of every priced model. */
export async function listPrices(s: UsageState, caller: UserCaller): Promise<PriceList> {
  authorize(caller, 'readPrices', null);
  const now = new Date();
  const items: ModelPrice[] = [];
  for (const rows of (await priceRows(s)).values()) {
    const current = rows.filter((r) => r.effectiveFrom <= now).at(-1);
    if (current) items.push(toPrice(current));
  }
  return { items: items.sort((a, b) => a.model.localeCompare(b.model)) };
}

/** `GET /api/v1/usage/prices/{model}/history`: every price the model had, newest first. */
export async function priceHistory(s: UsageState, caller: UserCaller, model: string): Promise<PriceList> {
  authorize(caller, 'readPrices', null);
  return { items: (await s.reportsStore.priceHistory(model)).map(toPrice) };
}

/**
 * `PUT /api/v1/usage/prices/{model}`: the model's price from now on, audit-logged with it; every
 * replica drops its copy of prices (PRICES_CHANGED), so the next call settles at the new price.
 */
export async function setPrice(
  s: UsageState,
  caller: UserCaller,
  model: string,
  input: PriceInput,
  meta: AuditMeta,
): Promise<ModelPrice> {
  authorize(caller, 'setPrices', null, 'Only a SuperAdmin sets model prices');
  const row = await s.ctx.db.transaction(async (tx) => {
    const added = await s.reportsStore.addPrice(tx, {
      id: `mp_${randomBase62(16)}`,
      model,
      inputPerMillionMicros: toMicros(input.inputPerMillion),
      outputPerMillionMicros: toMicros(input.outputPerMillion),
      cachedInputPerMillionMicros:
        input.cachedInputPerMillion !== undefined ? toMicros(input.cachedInputPerMillion) : null,
      perImageMicros: input.perImage !== undefined ? toMicros(input.perImage) : null,
      currency: input.currency,
      effectiveFrom: new Date(),
      setBy: caller.user.email,
    });
    await recordAudit(tx, caller, meta, {
      action: 'price.update',
      targetType: 'price',
      targetId: model,
      domainId: caller.domain.id,
      after: input,
    });
    return added;
  });
  s.prices = undefined;
  await s.ctx.bus.publish(PRICES_CHANGED, { model });
  return toPrice(row);
}
