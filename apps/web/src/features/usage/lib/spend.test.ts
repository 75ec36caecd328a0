import type { UsageRow } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { byCost, chartDays, formatMoney, isoDay, presetRange, rangeProblem } from './spend.ts';

const row = (key: string, costMicros: number, calls = 1, extra: Partial<UsageRow> = {}): UsageRow => ({
  key,
  label: key,
  calls,
  inputTokens: 10,
  outputTokens: 5,
  costMicros,
  unpricedCalls: 0,
  ...extra,
});

describe('presetRange', () => {
  // Local noon: the reader's calendar, whatever the test machine's zone.
  const today = new Date(2026, 2, 15, 12);

  it('this month so far', () => {
    expect(presetRange('this_month', today)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
  });

  it('the last 7 and 30 days include today', () => {
    expect(presetRange('last_7_days', today)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange('last_30_days', today)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
  });

  it('last month is the whole previous month, across a year', () => {
    expect(presetRange('last_month', today)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetRange('last_month', new Date(2026, 0, 3))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });

  it('writes local days', () => {
    expect(isoDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('rangeProblem', () => {
  it('accepts a day and a year and a day', () => {
    expect(rangeProblem({ from: '2026-03-01', to: '2026-03-01' })).toBeNull();
    expect(rangeProblem({ from: '2025-03-01', to: '2026-03-02' })).toBeNull();
  });

  it('refuses what the server would', () => {
    expect(rangeProblem({ from: '', to: '2026-03-01' })).toBe('incomplete');
    expect(rangeProblem({ from: '2026-03-02', to: '2026-03-01' })).toBe('order');
    expect(rangeProblem({ from: '2025-03-01', to: '2026-03-03' })).toBe('too_long');
  });
});

describe('chartDays', () => {
  it('fills every day of the range, in order, across a month', () => {
    const days = chartDays([row('2026-03-01', 1_500_000)], { from: '2026-02-27', to: '2026-03-02' });
    expect(days.map((d) => d.day)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(days[2]).toEqual({ day: '2026-03-01', cost: 1.5, tokens: 15 });
    expect(days[0]).toEqual({ day: '2026-02-27', cost: 0, tokens: 0 });
  });
});

describe('byCost', () => {
  it('puts the most expensive first, then the busiest', () => {
    const sorted = byCost([row('a', 10), row('b', 30), row('c', 10, 5)]);
    expect(sorted.map((r) => r.key)).toEqual(['b', 'c', 'a']);
  });
});

describe('formatMoney', () => {
  it('dollars in the reader’s language', () => {
    expect(formatMoney(1_234_560_000, 'en')).toBe('$1,234.56');
    expect(formatMoney(1_234_560_000, 'pt-BR')).toBe('US$\u00a01.234,56');
    expect(formatMoney(0, 'en')).toBe('$0.00');
  });

  it('keeps fractions of a cent visible', () => {
    expect(formatMoney(123, 'en')).toBe('$0.000123');
    expect(formatMoney(500_000, 'en')).toBe('$0.50');
  });
});
