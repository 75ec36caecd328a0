import { describe, expect, it } from 'vitest';
import {
  isFresh,
  REFRESH_BEFORE_EXPIRY_MS,
  RETRY_MAX_MS,
  RETRY_MIN_MS,
  refreshDelay,
  retryDelay,
} from './refresh.ts';

describe('the refresh schedule', () => {
  const now = 1_700_000_000_000;

  it('renews five minutes before the id token expires', () => {
    expect(REFRESH_BEFORE_EXPIRY_MS).toBe(300_000);
    expect(refreshDelay(now + 3_600_000, now)).toBe(3_300_000);
  });

  it('renews at once a token that expires within five minutes or already has', () => {
    expect(refreshDelay(now + 60_000, now)).toBe(0);
    expect(refreshDelay(now - 1, now)).toBe(0);
  });

  it('retries a failed renewal after 30 s, doubling up to 16 min', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(retryDelay)).toEqual([
      RETRY_MIN_MS,
      60_000,
      120_000,
      240_000,
      480_000,
      RETRY_MAX_MS,
      RETRY_MAX_MS,
      RETRY_MAX_MS,
    ]);
    expect(RETRY_MAX_MS).toBe(960_000);
  });

  it('uses a token only while more than a minute of it is left', () => {
    expect(isFresh(now + 61_000, now)).toBe(true);
    expect(isFresh(now + 60_000, now)).toBe(false);
    expect(isFresh(now - 1, now)).toBe(false);
  });
});
