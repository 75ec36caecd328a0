import { describe, expect, it } from 'vitest';
import { emptyBudgetValues, toInput } from './BudgetDialog.tsx';

const base = emptyBudgetValues;

describe('the budget form', () => {
  it('asks for what is missing before anything is sent', () => {
    expect(toInput({ ...base, tokens: 1000, kind: 'department' }, 'acme.test')).toBe('department');
    expect(toInput({ ...base, tokens: 1000, kind: 'user' }, 'acme.test')).toBe('person');
    expect(toInput(base, 'acme.test')).toBe('limit');
    expect(toInput({ ...base, tokens: 1000, warnAtPercent: 0 }, 'acme.test')).toBe('warn');
  });

  it('sends dollars as exact micros and only the limits given', () => {
    expect(toInput({ ...base, kind: 'user', userId: 'ana@acme.test', dollars: 12.34 }, 'acme.test')).toEqual({
      domain: 'acme.test',
      scope: { kind: 'user', userId: 'ana@acme.test' },
      period: 'month',
      limit: { costMicros: 12_340_000 },
      warnAtPercent: 80,
    });
    expect(toInput({ ...base, tokens: 5000, period: 'day' }, 'acme.test')).toMatchObject({
      scope: { kind: 'domain' },
      limit: { tokens: 5000 },
    });
  });
});
