import { describe, expect, it } from 'vitest';
import { randomBase62, randomBase64url } from './random-id.ts';

describe('randomBase62', () => {
  it('gives the length asked, in base62 characters only, never the same twice', () => {
    const ids = Array.from({ length: 2000 }, () => randomBase62(22));
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(randomBase62(0)).toBe('');
  });

  it('draws every character about as often (no modulo bias), across pool refills', () => {
    const counts = new Map<string, number>();
    // 620,000 characters: the 4 KB pool is refilled over a hundred times.
    for (let i = 0; i < 10_000; i++) {
      for (const ch of randomBase62(62)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(counts.size).toBe(62);
    const expected = 10_000;
    // Chi-square with 61 degrees of freedom: above 120 happens by chance about once in 10^6 runs;
    // bytes taken modulo 62 would draw eight characters 25% more often and score in the thousands.
    const chi = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(120);
  });
});

describe('randomBase64url', () => {
  it('gives the bytes asked as base64url, never the same twice, across pool refills', () => {
    // 2,000 × 32 bytes: the 4 KB pool is refilled over a dozen times.
    const secrets = Array.from({ length: 2000 }, () => randomBase64url(32));
    for (const s of secrets) expect(Buffer.from(s, 'base64url')).toHaveLength(32);
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('refuses more than the pool holds rather than give fewer bytes', () => {
    expect(randomBase64url(4096)).toHaveLength(5462);
    expect(() => randomBase64url(4097)).toThrow(RangeError);
  });
});
