import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { itWithRedis, testRedisUrl } from '../test/redis.ts';
import { type Bus, createLocalBus, createRedisBus, subscribeLive } from './bus.ts';

/** Resolves with the first message on `channel` of `bus`, published by `from` until it arrives. */
async function firstOn(from: Bus, bus: Bus, channel: string): Promise<unknown> {
  let got: unknown;
  const off = bus.subscribe(channel, (m) => {
    got ??= m;
  });
  // A Redis subscription is ready some time after subscribe(): publish until it is heard.
  for (let i = 0; i < 100 && got === undefined; i++) {
    await from.publish(channel, { marker: i });
    await new Promise((r) => setTimeout(r, 20));
  }
  off();
  return got;
}

async function roundTrip(a: Bus, b: Bus) {
  const got: unknown[] = [];
  const off = b.subscribe('ch', (m) => got.push(m));
  await firstOn(a, b, 'ready');
  await a.publish('ch', { uid: 'u1' });
  // Messages from one publisher arrive in order: once the marker after u1 is in, so is u1.
  await firstOn(a, b, 'after-u1');
  off();
  await a.publish('ch', { uid: 'u2' });
  // The same for u2: had the unsubscribed handler still been called, it would have been by now.
  await firstOn(a, b, 'after-u2');
  return got;
}

describe('bus', () => {
  it('delivers to local subscribers once, and not after unsubscribing', async () => {
    const bus = createLocalBus();
    expect(await roundTrip(bus, bus)).toEqual([{ uid: 'u1' }]);
    await bus.close();
  });

  it('subscribeLive: live at once on the local bus, and probes never reach a handler', async () => {
    const bus = createLocalBus();
    const got: unknown[] = [];
    const other: unknown[] = [];
    const sub = subscribeLive(bus, 'ch', (m) => got.push(m));
    await sub.live;
    // A second live subscriber's probes reach the first one's channel too: dropped there as well.
    const second = subscribeLive(bus, 'ch', (m) => other.push(m));
    await second.live;
    await bus.publish('ch', { n: 1 });
    expect(got).toEqual([{ n: 1 }]);
    expect(other).toEqual([{ n: 1 }]);
    sub.unsubscribe();
    second.unsubscribe();
    await bus.publish('ch', { n: 2 });
    expect(got).toEqual([{ n: 1 }]);
    await bus.close();
  });

  it('subscribeLive: live only once the subscription delivers, as Redis SUBSCRIBE lands late', async () => {
    const local = createLocalBus();
    // A bus whose subscriptions start delivering 200 ms after subscribe(), as a Redis one may.
    const slow: Bus = {
      publish: (channel, message) => local.publish(channel, message),
      subscribe(channel, handler) {
        let on = false;
        const timer = setTimeout(() => {
          on = true;
        }, 200);
        const off = local.subscribe(channel, (m) => {
          if (on) handler(m);
        });
        return () => {
          clearTimeout(timer);
          off();
        };
      },
      close: () => local.close(),
    };
    const got: unknown[] = [];
    const started = Date.now();
    const sub = subscribeLive(slow, 'ch', (m) => got.push(m));
    await sub.live;
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await slow.publish('ch', { n: 1 });
    expect(got).toEqual([{ n: 1 }]);
    sub.unsubscribe();
    await slow.close();
  });

  itWithRedis('fans out between two replicas through Redis and keeps prefixes apart', async () => {
    const url = testRedisUrl ?? '';
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
