import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * Redis is optional at run time as well as at start (docs/ARCHITECTURE.md#deployments-embedded-and-cluster): a replica whose Redis is
 * unreachable keeps serving with local counters and local fan-out. So commands never wait in an
 * offline queue (they fail at once and the caller falls back), the client reconnects forever in
 * the background, and what it reports is one warning a minute, not one per command.
 */
export function createRedisClient(url: string, log?: FastifyBaseLogger): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(200 * attempt, 5_000),
  });
  watch(client, log, 'Redis unavailable: counters and limits in memory, fan-out to this replica only');
  return client;
}

/**
 * The subscriber connection of the bus: its SUBSCRIBE commands wait for Redis (queued, never
 * rejected), and ioredis subscribes again by itself after every reconnect.
 */
export function createRedisSubscriber(url: string, log?: FastifyBaseLogger): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: null,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(200 * attempt, 5_000),
  });
  watch(client, log, 'Redis subscriber disconnected: messages from other replicas resume on reconnect');
  return client;
}

export const redisReady = (client: Redis | undefined): boolean => client?.status === 'ready';

function watch(client: Redis, log: FastifyBaseLogger | undefined, message: string): void {
  let lastWarn = 0;
  let down = false;
  client.on('error', (err: Error) => {
    down = true;
    if (Date.now() - lastWarn < 60_000) return;
    lastWarn = Date.now();
    log?.warn({ err: { message: err.message } }, message);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log?.info('Redis is back: shared counters and fan-out across replicas resume');
  });
}
