import { describe, expect, it } from 'vitest';
import { atOnce } from './at-once.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('atOnce', () => {
  it('runs every item, never more than n at a time', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await atOnce([1, 2, 3, 4, 5, 6, 7], 3, async (i) => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
      done.push(i);
    });
    expect(most).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('starts nothing after a failure, lets the running ones finish, then throws the first failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = atOnce([1, 2, 3, 4, 5, 6], 2, async (i) => {
      started.push(i);
      await tick();
      if (i === 1) throw new Error('page 1 failed');
      if (i === 2) throw new Error('page 2 failed');
      finished.push(i);
    });
    await expect(run).rejects.toThrow('page 1 failed');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([]);
  });
});
