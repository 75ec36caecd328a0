import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { createRedisClient, createRedisSubscriber, redisReady } from './redis.ts';

type Handler = (message: unknown) => void;

/**
 * Fan-out between the parts of one process and, with Redis, between replicas.
 * A message published here reaches local subscribers once, whether or not Redis is on.
 */
export interface Bus {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: Handler): () => void;
  close(): Promise<void>;
}

export function createLocalBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, message) {
      emitter.emit(channel, message);
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/**
 * `prefix` keeps runs (and tests) that share one Redis apart. While Redis is away a message
 * reaches this replica's subscribers directly.
 */
export function createRedisBus(url: string, prefix: string, log?: FastifyBaseLogger): Bus {
  const pub = createRedisClient(url, log);
  const sub = createRedisSubscriber(url, log);
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const counts = new Map<string, number>();
  sub.on('message', (full: string, raw: string) => {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    local.emit(full.slice(prefix.length), message);
  });
  return {
    async publish(channel, message) {
      // Through Redis the message comes back to our own subscriber too; without it, deliver here.
      if (redisReady(pub) && redisReady(sub)) {
        try {
          await pub.publish(prefix + channel, JSON.stringify(message));
          return;
        } catch {
          // Redis went away between the check and the command.
        }
      }
      local.emit(channel, message);
    },
    subscribe(channel, handler) {
      local.on(channel, handler);
      const n = (counts.get(channel) ?? 0) + 1;
      counts.set(channel, n);
      // Queued until Redis is there; ioredis subscribes again after each reconnect.
      if (n === 1) sub.subscribe(prefix + channel).catch(() => {});
      return () => {
        local.off(channel, handler);
        const left = (counts.get(channel) ?? 1) - 1;
        counts.set(channel, left);
        if (left === 0) sub.unsubscribe(prefix + channel).catch(() => {});
      };
    },
    async close() {
      local.removeAllListeners();
      pub.disconnect();
      sub.disconnect();
    },
  };
}

/** Key of the probe messages `subscribeLive` sends itself; never handed to a subscriber. */
const PROBE = '__busProbe';

/** A subscription that knows when it delivers. */
export interface LiveSubscription {
  /**
   * Resolves once a message published from now on is sure to reach the handler (or after ~2 s of
   * probing in vain: the caller goes on rather than waits forever).
   */
  live: Promise<void>;
  unsubscribe(): void;
}

/**
 * Subscribes `handler` to `channel` and finds out when the subscription delivers. With Redis,
 * SUBSCRIBE is asynchronous: a message published before it lands is lost, so whoever must not
 * miss one (a snapshot asked right after `ready`) waits for `live`. It probes its own channel
 * until its message comes back. Probes — its own and other subscribers' — never reach `handler`;
 * other replicas' subscribers of the channel receive them and drop them too, so every subscriber
 * of a channel that carries probes subscribes through here.
 */
export function subscribeLive(bus: Bus, channel: string, handler: Handler): LiveSubscription {
  const nonce = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  let markLive: () => void = () => {};
  const live = new Promise<void>((resolve) => {
    markLive = resolve;
  });
  let isLive = false;
  let stopped = false;
  const off = bus.subscribe(channel, (message) => {
    const probe = (message as { [PROBE]?: unknown } | null)?.[PROBE];
    if (probe === undefined) return handler(message);
    if (probe === nonce && !isLive) {
      isLive = true;
      markLive();
    }
  });
  void (async () => {
    for (let i = 0; i < 40 && !isLive && !stopped; i++) {
      await bus.publish(channel, { [PROBE]: nonce }).catch(() => {});
      if (!isLive) await new Promise((r) => setTimeout(r, 50));
    }
    markLive();
  })();
  return {
    live,
    unsubscribe() {
      stopped = true;
      off();
    },
  };
}
