import { describe, expect, it } from 'vitest';
import { flushIntervalMs } from './generation.ts';

describe('flushIntervalMs', () => {
  it('flushes four times a second with few answers, less often with many, and at least every 2 s', () => {
    expect(flushIntervalMs(1)).toBe(250);
    expect(flushIntervalMs(100)).toBe(250);
    expect(flushIntervalMs(101)).toBe(500);
    expect(flushIntervalMs(400)).toBe(1_000);
    expect(flushIntervalMs(1_000)).toBe(2_000);
    expect(flushIntervalMs(50_000)).toBe(2_000);
  });
});
