import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { HEARTBEAT_MS, STALE_AFTER_MS } from './heartbeat.ts';

/** Per-user limits of the agents websocket: concurrent generations and sends per minute. */
export interface AgentLimits {
  /** Counts one send; false when the user is over the per-minute limit. */
  allowSend(userId: string): Promise<boolean>;
  /** Takes a generation slot; undefined when the user has too many running. Call the result to release it. */
  acquire(userId: string): Promise<(() => void) | undefined>;
  readonly maxConcurrent: number;
  readonly sendsPerMinute: number;
}

const WINDOW_MS = 60_000;

/** A sliding one-minute window in a sorted set, atomically: refused sends are not counted. */
const SLIDING_WINDOW_LUA = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * A user's running generations across replicas: members are slots, scored by when their lease
 * ends. Leases that ran out (a replica killed mid-answer) stop counting by themselves.
 */
const SLOT_LUA = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/**
 * How long a slot holds without renewal: as long as an answer without a heartbeat lives, so a dead
 * replica's slots are free when the survivor ends its answers. Renewed on every heartbeat.
 */
const SLOT_LEASE_MS = STALE_AFTER_MS;

/**
 * Sends are counted over a sliding minute and running generations by leased slots, in Redis when
 * REDIS_URL is set (shared by every replica, so two replicas cannot run twice a user's limit),
 * else — or while Redis is away — in memory. RATE_LIMITS=off (benchmarks) lifts both.
 */
export function createAgentLimits(
  ctx: AppContext,
  /** Another counter of the same kind (the API keys' per-key allowance): its own keys and limit. */
  opts: { name?: string; sendsPerMinute?: number } = {},
): AgentLimits {
  const off = ctx.config.RATE_LIMITS === 'off';
  const maxConcurrent = ctx.config.AGENT_MAX_CONCURRENT;
  const sendsPerMinute = opts.sendsPerMinute ?? ctx.config.AGENT_SENDS_PER_MINUTE;
  const name = opts.name ?? 'agents';
  const running = new Map<string, number>();
  const recent = new Map<string, number[]>();

  function allowLocal(userId: string): boolean {
    const now = Date.now();
    const list = (recent.get(userId) ?? []).filter((t) => now - t < WINDOW_MS);
    if (list.length >= sendsPerMinute) {
      recent.set(userId, list);
      return false;
    }
    list.push(now);
    recent.set(userId, list);
    if (recent.size > 50_000) {
      for (const [k, v] of recent) if (v.every((t) => now - t >= WINDOW_MS)) recent.delete(k);
    }
    return true;
  }

  return {
    maxConcurrent,
    sendsPerMinute,
    async allowSend(userId) {
      if (off) return true;
      const redis = ctx.redis;
      if (!redis) return allowLocal(userId);
      const key = `${ctx.keyPrefix}${name}:sends:${userId}`;
      try {
        const now = Date.now();
        const member = `${now}:${Math.random().toString(36).slice(2)}`;
        const ok = await redis.eval(SLIDING_WINDOW_LUA, 1, key, now, WINDOW_MS, sendsPerMinute, member);
        return Number(ok) === 1;
      } catch (err) {
        ctx.log.warn({ err }, 'agents rate limit: Redis unavailable, counting in memory');
        return allowLocal(userId);
      }
    },
    async acquire(userId) {
      if (off) return () => {};
      const redis = ctx.redis;
      if (redis) {
        const key = `${ctx.keyPrefix}agents:running:${userId}`;
        const slot = randomUUID();
        try {
          const ok = await redis.eval(SLOT_LUA, 1, key, Date.now(), maxConcurrent, SLOT_LEASE_MS, slot);
          if (Number(ok) !== 1) return undefined;
          const renew = setInterval(() => {
            redis
              .multi()
              .zadd(key, 'XX', Date.now() + SLOT_LEASE_MS, slot)
              .pexpire(key, SLOT_LEASE_MS)
              .exec()
              .catch(() => {});
          }, HEARTBEAT_MS);
          renew.unref();
          let released = false;
          return () => {
            if (released) return;
            released = true;
            clearInterval(renew);
            redis.zrem(key, slot).catch(() => {});
          };
        } catch (err) {
          ctx.log.warn(
            { err: { message: (err as Error).message } },
            'agents: Redis unavailable, counting answers in memory',
          );
        }
      }
      return acquireLocal(userId);
    },
  };

  function acquireLocal(userId: string): (() => void) | undefined {
    const n = running.get(userId) ?? 0;
    if (n >= maxConcurrent) return undefined;
    running.set(userId, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (running.get(userId) ?? 1) - 1;
      if (left <= 0) running.delete(userId);
      else running.set(userId, left);
    };
  }
}
