import { describe, expect, it } from 'vitest';
import { estimateTokens } from './tokens.ts';

describe('estimateTokens', () => {
  const long = 'Uma conversa longa o bastante para ser guardada depois de contada. '.repeat(20);

  it('counts parts as the sum of each, the same the second time (kept) as the first', async () => {
    const whole = await estimateTokens(long);
    const short = await estimateTokens('Olá');
    expect(whole).toBeGreaterThan(200);
    expect(await estimateTokens([long, 'Olá', ''])).toBe(whole + short);
    expect(await estimateTokens([long, 'Olá'])).toBe(whole + short);
    expect(await estimateTokens(`${long}!`)).toBeGreaterThanOrEqual(whole);
  });

  it('counts nothing as nothing', async () => {
    expect(await estimateTokens('')).toBe(0);
    expect(await estimateTokens(['', ''])).toBe(0);
  });
});
