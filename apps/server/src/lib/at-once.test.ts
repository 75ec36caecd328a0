import { describe, expect, it } from 'vitest';
import { atOnce, readAhead } from './at-once.ts';

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

describe('readAhead', () => {
  it('asks for the next item while the consumer works on the current one', async () => {
    const log: string[] = [];
    async function* source() {
      for (let i = 1; i <= 3; i++) {
        log.push(`read ${i}`);
        await tick();
        yield i;
      }
    }
    const got: number[] = [];
    for await (const i of readAhead(source())) {
      log.push(`work ${i}`);
      await tick();
      await tick();
      got.push(i);
    }
    expect(got).toEqual([1, 2, 3]);
    // Item 2 is being read before the work on item 1 ends, and so on.
    expect(log).toEqual(['read 1', 'read 2', 'work 1', 'read 3', 'work 2', 'work 3']);
  });

  it('a failing read is thrown where the consumer asks for it; stopping early ends the source', async () => {
    let closed = false;
    async function* failing() {
      try {
        yield 1;
        throw new Error('read 2 failed');
      } finally {
        closed = true;
      }
    }
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const i of readAhead(failing())) got.push(i);
      })(),
    ).rejects.toThrow('read 2 failed');
    expect(got).toEqual([1]);
    expect(closed).toBe(true);

    closed = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    for await (const i of readAhead(endless())) if (i === 2) break;
    await tick();
    expect(closed).toBe(true);
  });
});
