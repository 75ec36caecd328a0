import { describe, expect, it } from 'vitest';
import { flushIntervalMs } from './generation.ts';

describe('flushIntervalMs', () => {
  it('flushes four times a second with few answers, less often with many, and at least every 5 s', () => {
    expect(flushIntervalMs(1)).toBe(250);
    expect(flushIntervalMs(50)).toBe(250);
    expect(flushIntervalMs(51)).toBe(500);
    expect(flushIntervalMs(200)).toBe(1_000);
    expect(flushIntervalMs(1_000)).toBe(5_000);
    expect(flushIntervalMs(50_000)).toBe(5_000);
  });
});
