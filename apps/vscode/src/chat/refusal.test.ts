import { describe, expect, it } from 'vitest';
import { refusalText } from './refusal.ts';

const texts = {
  budgetExceeded: 'Budget used up until {0}.',
  priceMissing: 'No price.',
  modelNotAllowed: 'Closed to you.',
};

describe('refusalText', () => {
  it('says when a budget resets, in the editor’s language', () => {
    const frame = { code: 'BUDGET_EXCEEDED', message: 'raw', resetsAt: '2026-12-01T03:00:00.000Z' } as const;
    const pt = refusalText(frame, texts, 'pt-br');
    expect(pt).toMatch(/^Budget used up until .*2026.*\.$/);
    expect(pt).toContain('dez');
    expect(refusalText(frame, texts, 'en')).toContain('Dec');
  });

  it('translates the model refusals and keeps the server’s words for anything else', () => {
    expect(refusalText({ code: 'PRICE_MISSING', message: 'raw' }, texts, 'en')).toBe('No price.');
    expect(refusalText({ code: 'MODEL_NOT_ALLOWED', message: 'raw' }, texts, 'en')).toBe('Closed to you.');
    expect(refusalText({ code: 'RATE_LIMITED', message: 'Slow down.' }, texts, 'en')).toBe('Slow down.');
  });

  it('falls back to the host’s language when the editor’s is not one Intl knows', () => {
    const frame = { code: 'BUDGET_EXCEEDED', message: 'raw', resetsAt: '2026-12-01T03:00:00.000Z' } as const;
    expect(refusalText(frame, texts, 'x-not-a-language!')).toMatch(/^Budget used up until .+\.$/);
  });
});
