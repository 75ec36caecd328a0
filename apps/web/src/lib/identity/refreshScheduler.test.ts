import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PROACTIVE_REFRESH_OFFSET_MS,
  ProactiveRefresh,
  REFRESH_RETRY_MAX_MS,
  REFRESH_RETRY_MIN_MS,
} from './refreshScheduler.ts';

const MIN = 60_000;

/** A running scheduler over `refresh` for a token that expires at `expiration()`. */
function started(
  refresh: () => Promise<unknown>,
  expiration: () => number,
  retryable = true,
): ProactiveRefresh {
  const scheduler = new ProactiveRefresh(refresh, expiration, () => retryable);
  scheduler.start();
  return scheduler;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('proactive refresh', () => {
  it('uses the spec numbers: 5 min ahead, backoff 30 s → 16 min', () => {
    expect(PROACTIVE_REFRESH_OFFSET_MS).toBe(5 * MIN);
    expect(REFRESH_RETRY_MIN_MS).toBe(30_000);
    expect(REFRESH_RETRY_MAX_MS).toBe(16 * MIN);
  });

  it('renews 5 min before the token expires', async () => {
    let expiration = 60 * MIN;
    const refresh = vi.fn(async () => {
      expiration = Date.now() + 60 * MIN;
    });
    const scheduler = started(refresh, () => expiration);
    await vi.advanceTimersByTimeAsync(55 * MIN - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    // and again 5 min before the renewed token expires
    await vi.advanceTimersByTimeAsync(55 * MIN);
    expect(refresh).toHaveBeenCalledTimes(2);
    scheduler.stop();
  });

  it('renews at once when the token is already within 5 min of expiry', async () => {
    const refresh = vi.fn(async () => {});
    const scheduler = started(refresh, () => 2 * MIN);
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    scheduler.stop();
  });

  it('backs off after failures: 30 s doubling, capped at 16 min, reset after a success', async () => {
    const scheduler = new ProactiveRefresh(
      async () => {},
      () => 60 * MIN,
      () => true,
    );
    const delays = Array.from({ length: 8 }, () => scheduler.nextDelay(true));
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000]);
    expect(scheduler.nextDelay(false, 0)).toBe(55 * MIN);
    expect(scheduler.nextDelay(true)).toBe(30_000);
  });

  it('retries failed renewals on the backoff schedule', async () => {
    let fail = true;
    let expiration = 0; // already expired: first attempt immediately
    const refresh = vi.fn(async () => {
      if (fail) throw new Error('offline');
      expiration = Date.now() + 60 * MIN;
    });
    const scheduler = started(refresh, () => expiration);
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(refresh).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(3);
    fail = false;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(refresh).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(55 * MIN);
    expect(refresh).toHaveBeenCalledTimes(5);
    scheduler.stop();
  });

  it('stops on a failure that cannot be retried', async () => {
    const refresh = vi.fn(async () => {
      throw new Error('revoked');
    });
    const scheduler = started(refresh, () => 0, false);
    await vi.advanceTimersByTimeAsync(0);
    expect(scheduler.isRunning).toBe(false);
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MAX_MS * 2);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
