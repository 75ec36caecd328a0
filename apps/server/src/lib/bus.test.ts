import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Bus, createLocalBus, createRedisBus } from './bus.ts';

async function roundTrip(a: Bus, b: Bus) {
  const got: unknown[] = [];
  const off = b.subscribe('ch', (m) => got.push(m));
  await new Promise((r) => setTimeout(r, 100));
  await a.publish('ch', { uid: 'u1' });
  for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  off();
  await a.publish('ch', { uid: 'u2' });
  await new Promise((r) => setTimeout(r, 100));
  return got;
}

describe('bus', () => {
  it('delivers to local subscribers once, and not after unsubscribing', async () => {
    const bus = createLocalBus();
    expect(await roundTrip(bus, bus)).toEqual([{ uid: 'u1' }]);
    await bus.close();
  });

  // Defined only where Redis is configured (always in CI), so it never shows up as skipped.
  if (process.env.REDIS_URL)
    it('fans out between two replicas through Redis and keeps prefixes apart', async () => {
      const url = process.env.REDIS_URL!;
      const prefix = `t${randomBytes(4).toString('hex')}:`;
      const a = createRedisBus(url, prefix);
      const b = createRedisBus(url, prefix);
      const other = createRedisBus(url, `${prefix}other:`);
      const strangers: unknown[] = [];
      other.subscribe('ch', (m) => strangers.push(m));
      expect(await roundTrip(a, b)).toEqual([{ uid: 'u1' }]);
      expect(strangers).toEqual([]);
      await Promise.all([a.close(), b.close(), other.close()]);
    });
});
