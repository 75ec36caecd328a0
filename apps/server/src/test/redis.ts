import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Built } from '../app.ts';
import { startReplica, type TestApp } from './app.ts';

/** The Redis the tests may use (CI sets it for every test project); absent on a bare machine. */
export const testRedisUrl = process.env.REDIS_URL || undefined;

/**
 * Blocks and tests that need a real Redis: reported as skipped where none is configured, so a run
 * without one says what it did not try (and `npm test` counts them) instead of leaving them out unseen.
 */
export const describeWithRedis: ReturnType<typeof describe.skipIf> = describe.skipIf(!testRedisUrl);
export const itWithRedis: ReturnType<typeof it.skipIf> = it.skipIf(!testRedisUrl);

/**
 * A second replica of `app()` for the enclosing block, joined to it through Redis: started before
 * the block's tests, closed after them. Read `wsUrl` inside the tests.
 */
export function replicaOf(app: () => TestApp): { readonly wsUrl: string } {
  const replica = { wsUrl: '' };
  let built: Built | undefined;
  beforeAll(async () => {
    ({ built, wsUrl: replica.wsUrl } = await startReplica(app()));
  });
  afterAll(async () => {
    await built?.app.close();
  });
  return replica;
}
