import { describe, expect, it } from 'vitest';
import { containsNul } from './nul.ts';

describe('containsNul', () => {
  it('finds a NUL in strings, nested values and keys', () => {
    expect(containsNul('a\0b')).toBe(true);
    expect(containsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(containsNul({ 'k\0': 1 })).toBe(true);
  });

  it('passes ordinary text, the escaped form and non-strings', () => {
    expect(containsNul({ a: ['\\u0000', 'olá', 1, null, true] })).toBe(false);
    expect(containsNul(undefined)).toBe(false);
  });
});
