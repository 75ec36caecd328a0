import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { describeWithRedis, testRedisUrl } from '../../test/redis.ts';
import {
  type CounterStore,
  emailKey,
  FallbackCounterStore,
  ipKey,
  Lockout,
  MemoryCounterStore,
  Quota,
  RedisCounterStore,
} from './throttle.ts';

const silent = Fastify({ logger: false }).log;

describe('Lockout', () => {
  it('locks after the maximum failures and doubles the lock each time, up to the cap', async () => {
    const store = new MemoryCounterStore();
    const flag = vi.spyOn(store, 'flag');
    const lockout = new Lockout(store, 'acct', {
      max: 3,
      windowMs: 60_000,
      lockBaseMs: 1000,
      lockMaxMs: 3000,
    });
    await lockout.fail('a');
    await lockout.fail('a');
    expect(await lockout.isLocked('a')).toBe(false);
    expect(await lockout.fail('a')).toBe(1000);
    expect(await lockout.isLocked('a')).toBe(true);
    await lockout.fail('a');
    await lockout.fail('a');
    expect(flag.mock.calls.map((c) => c[1])).toEqual([1000, 2000, 3000]);
    expect(await lockout.isLocked('b')).toBe(false);
    await lockout.reset('a');
    expect(await lockout.isLocked('a')).toBe(false);
  });

  it('unlocks when the lock runs out', async () => {
    vi.useFakeTimers();
    try {
      const lockout = new Lockout(new MemoryCounterStore(), 'acct', {
        max: 1,
        windowMs: 60_000,
        lockBaseMs: 1000,
        lockMaxMs: 1000,
      });
      await lockout.fail('a');
      expect(await lockout.isLocked('a')).toBe(true);
      vi.advanceTimersByTime(1001);
      expect(await lockout.isLocked('a')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Quota', () => {
  it('allows max uses per window', async () => {
    const quota = new Quota(new MemoryCounterStore(), 'q', 2, 60_000);
    expect([await quota.take('x'), await quota.take('x'), await quota.take('x')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(await quota.take('y')).toBe(true);
  });
});

describe('counter ids', () => {
  it('fold the case of emails and hide them', () => {
    expect(emailKey(' Ana@Example.COM ')).toBe(emailKey('ana@example.com'));
    expect(emailKey('ana@example.com')).not.toContain('ana');
  });

  it('count IPv6 per /64 and IPv4 as is', () => {
    expect(ipKey('203.0.113.7')).toBe('203.0.113.7');
    expect(ipKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(ipKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('FallbackCounterStore', () => {
  it('keeps counting in memory when the primary store fails', async () => {
    const broken: CounterStore = {
      hit: () => Promise.reject(new Error('down')),
      flag: () => Promise.reject(new Error('down')),
      isFlagged: () => Promise.reject(new Error('down')),
      clear: () => Promise.reject(new Error('down')),
    };
    const store = new FallbackCounterStore(broken, new MemoryCounterStore(), silent);
    expect(await store.hit('k', 1000)).toBe(1);
    expect(await store.hit('k', 1000)).toBe(2);
    await store.flag('f', 1000);
    expect(await store.isFlagged('f')).toBe(true);
  });
});

describeWithRedis('RedisCounterStore', () => {
  // Made lazily: the block is still collected where it is skipped, and must not dial a Redis there.
  const redis = new Redis(testRedisUrl ?? '', { lazyConnect: true });
  const prefix = `t${Date.now().toString(36)}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('counts within a window, flags and clears, shared by every client', async () => {
    const a = new RedisCounterStore(redis, prefix);
    const b = new RedisCounterStore(redis, prefix);
    expect(await a.hit('c', 60_000)).toBe(1);
    expect(await b.hit('c', 60_000)).toBe(2);
    expect(await redis.pttl(`${prefix}c`)).toBeGreaterThan(50_000);
    await a.flag('f', 60_000);
    expect(await b.isFlagged('f')).toBe(true);
    await b.clear(['c', 'f']);
    expect(await a.isFlagged('f')).toBe(false);
    expect(await a.hit('c', 60_000)).toBe(1);
  });
});
