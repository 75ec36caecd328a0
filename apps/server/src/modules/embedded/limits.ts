import type { AppContext } from '../../context.ts';
import type { VisitorCaller } from '../../lib/caller.ts';
import { visitorRateLimited } from './errors.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Checks every counter first and counts only when all allow it, atomically: a refused message is
 * not counted, and two replicas cannot both let the last one through. KEYS are counters; ARGV holds
 * each one's limit then its lifetime in ms.
 */
const ADMIT_LUA = `
for i = 1, #KEYS do
  local n = tonumber(redis.call('GET', KEYS[i]) or '0')
  if n >= tonumber(ARGV[i * 2 - 1]) then return i end
end
for i = 1, #KEYS do
  local n = redis.call('INCR', KEYS[i])
  if n == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[i * 2]) end
end
return 0`;

/**
 * What a visitor spends: a message, or a chat. Chats have counters of their own under the same
 * limits: starting a chat costs nothing of the visitor's messages, yet no visitor starts more
 * chats than they may send messages (chats made and left empty would otherwise be free).
 */
export type VisitorSpend = 'message' | 'chat';

export interface VisitorLimiter {
  /** Counts one `what` of `visitor` from `ip`; throws RATE_LIMITED (429) when over a limit. */
  admit(visitor: VisitorCaller, ip: string, what: VisitorSpend): Promise<void>;
}

/**
 * Embeds' per-visitor and per-IP limits (docs/ARCHITECTURE.md#embedded-chat: `messagesPerMinute`, `messagesPerDay`), in fixed
 * minute and UTC-day windows: in Redis when REDIS_URL is set (shared by every replica), else — or while
 * Redis is away — in memory. RATE_LIMITS=off (benchmarks) lifts them, as it lifts the others.
 */
export function createVisitorLimiter(ctx: AppContext): VisitorLimiter {
  const off = ctx.config.RATE_LIMITS === 'off';
  const local = new Map<string, { n: number; expires: number }>();

  function admitLocal(keys: string[], limits: number[], ttls: number[]): number {
    const now = Date.now();
    for (let i = 0; i < keys.length; i++) {
      const hit = local.get(keys[i]!);
      if (hit && hit.expires > now && hit.n >= limits[i]!) return i + 1;
    }
    for (let i = 0; i < keys.length; i++) {
      const hit = local.get(keys[i]!);
      if (hit && hit.expires > now) hit.n++;
      else local.set(keys[i]!, { n: 1, expires: now + ttls[i]! });
    }
    if (local.size > 100_000) for (const [k, v] of local) if (v.expires <= now) local.delete(k);
    return 0;
  }

  return {
    async admit(visitor, ip, what) {
      if (off) return;
      const now = Date.now();
      const minute = Math.floor(now / MINUTE_MS);
      const day = Math.floor(now / DAY_MS);
      const { messagesPerMinute, messagesPerDay } = visitor.virtualAccount.limits;
      const base = `${ctx.keyPrefix}embedded:${visitor.virtualAccount.id}${what === 'chat' ? ':c' : ''}`;
      const who = [`v:${visitor.visitorId}`, `ip:${ip}`];
      const keys = who.flatMap((w) => [`${base}:${w}:m:${minute}`, `${base}:${w}:d:${day}`]);
      const limits = [messagesPerMinute, messagesPerDay, messagesPerMinute, messagesPerDay];
      const ttls = [MINUTE_MS, DAY_MS, MINUTE_MS, DAY_MS];
      let refused: number;
      const redis = ctx.redis;
      if (redis) {
        try {
          const args = limits.flatMap((l, i) => [l, ttls[i]!]);
          refused = Number(await redis.eval(ADMIT_LUA, keys.length, ...keys, ...args));
        } catch (err) {
          ctx.log.warn({ err }, 'embedded limits: Redis unavailable, counting in memory');
          refused = admitLocal(keys, limits, ttls);
        }
      } else {
        refused = admitLocal(keys, limits, ttls);
      }
      if (refused === 0) return;
      const perDay = refused === 2 || refused === 4;
      const message =
        what === 'chat'
          ? perDay
            ? 'You have started the most chats allowed today; come back tomorrow'
            : 'You are starting chats too fast; wait a minute'
          : perDay
            ? 'You have sent the most messages allowed today; come back tomorrow'
            : 'You are sending messages too fast; wait a minute';
      throw visitorRateLimited(message, perDay ? 'day' : 'minute');
    },
  };
}
