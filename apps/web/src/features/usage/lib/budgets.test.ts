import type { BudgetStatus } from '@assistente/contracts';
import { percentUsed } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { bannerBudgets, budgetColor, describeLimit, dismissKey } from './budgets.ts';

const status = (over: Partial<BudgetStatus>): BudgetStatus => ({
  budgetId: 'b1',
  scope: 'department',
  period: 'month',
  limit: { tokens: 1000 },
  used: {
    costMicros: 0,
    tokens: 0,
    periodStart: '2026-11-01T03:00:00.000Z',
    resetsAt: '2026-12-01T03:00:00.000Z',
  },
  percent: 0,
  warnAtPercent: 80,
  ...over,
});

describe('budgets', () => {
  it('takes the larger share of the two limits', () => {
    expect(
      percentUsed({ costMicros: 10_000_000, tokens: 1000 }, { costMicros: 2_000_000, tokens: 900 }),
    ).toBe(90);
    expect(percentUsed({ costMicros: 10_000_000 }, { costMicros: 12_000_000, tokens: 5 })).toBe(120);
  });

  it('shows the banner at the warning, most used first, and not once dismissed for the period', () => {
    const low = status({ budgetId: 'low', percent: 79 });
    const warn = status({ budgetId: 'warn', percent: 80 });
    const spent = status({ budgetId: 'spent', percent: 130 });
    expect(bannerBudgets([low, warn, spent], new Set()).map((b) => b.budgetId)).toEqual(['spent', 'warn']);
    expect(bannerBudgets([warn, spent], new Set([dismissKey(spent)])).map((b) => b.budgetId)).toEqual([
      'warn',
    ]);
    // The next period is another key: the dismissal does not carry over.
    const next = { ...spent, used: { ...spent.used, periodStart: '2026-12-01T03:00:00.000Z' } };
    expect(bannerBudgets([next], new Set([dismissKey(spent)]))).toHaveLength(1);
    // A warning dismissed does not hide the same budget once spent.
    expect(bannerBudgets([{ ...warn, percent: 100 }], new Set([dismissKey(warn)]))).toHaveLength(1);
  });

  it('describes limits in the reader’s language and colours by the budget’s own warning', () => {
    expect(describeLimit({ costMicros: 50_000_000, tokens: 1_000_000 }, 'pt-BR', 'tokens')).toBe(
      'US$\u00a050,00 · 1.000.000 tokens',
    );
    expect(budgetColor(50, 60)).toBe('teal');
    expect(budgetColor(60, 60)).toBe('orange');
    expect(budgetColor(100, 60)).toBe('red');
  });
});
