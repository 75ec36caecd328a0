import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelPrices, usageDaily, usageEvents } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, type TestDomain } from '../../test/factories.ts';
import { costMicros, pricesAll } from './costing.ts';

let t: TestApp;
let d: TestDomain;

beforeAll(async () => {
  t = await buildTestApp();
  d = await makeDomain(t.ctx);
});
afterAll(() => t.close());

const price = (over: Partial<typeof modelPrices.$inferSelect> = {}) => ({
  id: 'p',
  model: 'm:x',
  inputPerMillionMicros: 2_500_000,
  outputPerMillionMicros: 10_000_000,
  cachedInputPerMillionMicros: null,
  perImageMicros: null as number | null,
  currency: 'USD' as const,
  effectiveFrom: new Date(0),
  setBy: 'root@x',
  ...over,
});

describe('costing', () => {
  it('prices images per image, and says a model without a price per image does not price them', () => {
    expect(
      costMicros(price({ perImageMicros: 40_000 }), { inputTokens: 0, outputTokens: 0, images: 2 }),
    ).toBe(80_000);
    expect(pricesAll(price(), { images: 1 })).toBe(false);
    expect(pricesAll(price(), { images: 0 })).toBe(true);
    expect(pricesAll(price({ perImageMicros: 0 }), { images: 1 })).toBe(true);
  });

  it('prices input, cached input and output in whole micros, rounding once per call', () => {
    expect(costMicros(price(), { inputTokens: 1_000_000, outputTokens: 0 })).toBe(2_500_000);
    expect(costMicros(price(), { inputTokens: 1, outputTokens: 1 })).toBe(13); // 2.5 + 10 = 12.5 → 13
    expect(
      costMicros(price({ cachedInputPerMillionMicros: 1_250_000 }), {
        inputTokens: 1_000_000,
        cachedInputTokens: 400_000,
        outputTokens: 0,
      }),
    ).toBe(600_000 * 2.5 + 400_000 * 1.25);
    // Past 2^53 in the intermediate product, still exact.
    expect(
      costMicros(price({ inputPerMillionMicros: 1_000_000_000_000 }), {
        inputTokens: 100_000_000,
        outputTokens: 0,
      }),
    ).toBe(100_000_000_000_000);
  });
});

describe('the ledger', () => {
  it('writes one row per call and folds it into the day, priced at the price in force, unknown without one', async () => {
    await t.ctx.db.insert(modelPrices).values([
      price({ id: 'p-old', model: 'fixture:priced', effectiveFrom: new Date('2026-01-01T00:00:00Z') }),
      price({
        id: 'p-new',
        model: 'fixture:priced',
        inputPerMillionMicros: 5_000_000,
        effectiveFrom: new Date('2026-06-01T00:00:00Z'),
      }),
    ]);
    const base = { domainId: d.domain.id, userId: 'someone@x', departmentId: 'dep', source: 'chat' as const };
    // 23:30 in São Paulo on 1 March is 02:30 UTC on 2 March: the domain's day counts.
    const march = new Date('2026-03-02T02:30:00Z');
    const a = await t.ctx.services.usage.record({
      ...base,
      model: 'fixture:priced',
      tokens: { inputTokens: 1000, outputTokens: 100 },
      at: march,
    });
    const b = await t.ctx.services.usage.record({
      ...base,
      model: 'fixture:priced',
      tokens: { inputTokens: 1000, outputTokens: 100 },
      at: new Date('2026-03-02T02:45:00Z'),
    });
    const c = await t.ctx.services.usage.record({
      ...base,
      model: 'fixture:free-for-all',
      tokens: { inputTokens: 10, outputTokens: 10 },
      at: march,
    });
    const later = await t.ctx.services.usage.record({
      ...base,
      model: 'fixture:priced',
      tokens: { inputTokens: 1000, outputTokens: 0 },
      at: new Date('2026-07-01T12:00:00Z'),
    });
    expect(a.costMicros).toBe(3500); // 1000 × 2.5 + 100 × 10
    expect(b.costMicros).toBe(3500);
    expect(c.costMicros).toBeNull();
    expect(later.costMicros).toBe(5000);

    const events = await t.ctx.db.select().from(usageEvents).where(eq(usageEvents.domainId, d.domain.id));
    expect(events).toHaveLength(4);
    expect(events.find((e) => e.id === a.eventId)?.priceId).toBe('p-old');
    const days = await t.ctx.db.select().from(usageDaily).where(eq(usageDaily.domainId, d.domain.id));
    const firstOfMarch = days.filter((r) => r.day === '2026-03-01');
    expect(firstOfMarch.find((r) => r.model === 'fixture:priced')).toMatchObject({
      calls: 2,
      inputTokens: 2000,
      outputTokens: 200,
      costMicros: 7000,
      unpricedCalls: 0,
    });
    expect(firstOfMarch.find((r) => r.model === 'fixture:free-for-all')).toMatchObject({
      calls: 1,
      costMicros: 0,
      unpricedCalls: 1,
    });
  });
});
