import { describe, expect, it } from 'vitest';
import { PacedBatches } from './paced-batches.ts';

describe('paced batches', () => {
  it('halves a statement that took too long, doubles a quick one, within its bounds', async () => {
    const paced = new PacedBatches(1_000, 4, 10);
    const sizes: number[] = [];
    const slow = (size: number) => {
      sizes.push(size);
      return new Promise((r) => setTimeout(r, 15));
    };
    for (let i = 0; i < 6; i++) await paced.run(slow);
    expect(sizes).toEqual([100, 50, 25, 12, 10, 10]);
    sizes.length = 0;
    for (let i = 0; i < 40; i++) await paced.run(async (size) => void sizes.push(size));
    // Quick statements grow it up to its bound, never past it.
    expect(sizes[1]).toBeGreaterThan(10);
    expect(Math.max(...sizes)).toBe(1_000);
  });
});
