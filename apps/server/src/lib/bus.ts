import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

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

/** `prefix` keeps runs (and tests) that share one Redis apart. */
export function createRedisBus(url: string, prefix: string): Bus {
  const pub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: false });
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
      await pub.publish(prefix + channel, JSON.stringify(message));
    },
    subscribe(channel, handler) {
      local.on(channel, handler);
      const n = (counts.get(channel) ?? 0) + 1;
      counts.set(channel, n);
      if (n === 1) void sub.subscribe(prefix + channel);
      return () => {
        local.off(channel, handler);
        const left = (counts.get(channel) ?? 1) - 1;
        counts.set(channel, left);
        if (left === 0) void sub.unsubscribe(prefix + channel);
      };
    },
    async close() {
      local.removeAllListeners();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
