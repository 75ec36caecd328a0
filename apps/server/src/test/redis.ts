import { describe, it } from 'vitest';

/** The Redis the tests may use (CI sets it for every test project); absent on a bare machine. */
export const testRedisUrl = process.env.REDIS_URL || undefined;

/**
 * Blocks and tests that need a real Redis: reported as skipped where none is configured, so a run
 * without one says what it did not try (and `npm test` counts them) instead of leaving them out unseen.
 */
export const describeWithRedis: ReturnType<typeof describe.skipIf> = describe.skipIf(!testRedisUrl);
export const itWithRedis: ReturnType<typeof it.skipIf> = it.skipIf(!testRedisUrl);
