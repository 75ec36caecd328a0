import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** Expiring counters and flags: in memory, or in Redis so replicas share them. */
export interface CounterStore {
  /** Counts one hit in a window that starts at the first hit; answers the count so far. */
  hit(key: string, windowMs: number): Promise<number>;
  /** Raises a flag for `ms` (replacing a shorter or longer one). */
  flag(key: string, ms: number): Promise<void>;
  isFlagged(key: string): Promise<boolean>;
  clear(keys: string[]): Promise<void>;
}

const MEMORY_MAX_KEYS = 100_000;

export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, { n: number; expires: number }>();
  private writes = 0;

  async hit(key: string, windowMs: number): Promise<number> {
    const now = Date.now();
    let e = this.entries.get(key);
    if (!e || e.expires <= now) {
      e = { n: 0, expires: now + windowMs };
      this.set(key, e, now);
    }
    e.n += 1;
    return e.n;
  }

  async flag(key: string, ms: number): Promise<void> {
    const now = Date.now();
    this.set(key, { n: 1, expires: now + ms }, now);
  }

  async isFlagged(key: string): Promise<boolean> {
    const e = this.entries.get(key);
    return !!e && e.expires > Date.now();
  }

  async clear(keys: string[]): Promise<void> {
    for (const k of keys) this.entries.delete(k);
  }

  private set(key: string, value: { n: number; expires: number }, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (++this.writes % 1000 === 0) {
      for (const [k, v] of this.entries) if (v.expires <= now) this.entries.delete(k);
    }
    // Under a flood of distinct keys, forget the oldest rather than grow without bound.
    while (this.entries.size > MEMORY_MAX_KEYS) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}

const HIT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, windowMs: number): Promise<number> {
    return Number(await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, Math.max(1, Math.round(windowMs))));
  }

  async flag(key: string, ms: number): Promise<void> {
    await this.redis.set(this.prefix + key, '1', 'PX', Math.max(1, Math.round(ms)));
  }

  async isFlagged(key: string): Promise<boolean> {
    return (await this.redis.exists(this.prefix + key)) === 1;
  }

  async clear(keys: string[]): Promise<void> {
    if (keys.length) await this.redis.del(...keys.map((k) => this.prefix + k));
  }
}

/**
 * Redis first; when Redis fails, the same counters in memory so sign-in keeps working and keeps
 * its brute-force limits (per replica) instead of failing open or failing every request.
 */
export class FallbackCounterStore implements CounterStore {
  private lastWarn = 0;

  constructor(
    private readonly primary: CounterStore,
    private readonly fallback: CounterStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  private async run<T>(op: (s: CounterStore) => Promise<T>): Promise<T> {
    try {
      return await op(this.primary);
    } catch (err) {
      if (Date.now() - this.lastWarn > 60_000) {
        this.lastWarn = Date.now();
        this.log.warn({ err }, 'identity: Redis unavailable, brute-force counters fall back to memory');
      }
      return op(this.fallback);
    }
  }

  hit(key: string, windowMs: number) {
    return this.run((s) => s.hit(key, windowMs));
  }
  flag(key: string, ms: number) {
    return this.run((s) => s.flag(key, ms));
  }
  isFlagged(key: string) {
    return this.run((s) => s.isFlagged(key));
  }
  clear(keys: string[]) {
    return this.run((s) => s.clear(keys));
  }
}

export interface LockoutRule {
  /** Failures within `windowMs` that lock. */
  max: number;
  windowMs: number;
  /** First lock; each further lock within a day doubles it, up to `lockMaxMs`. */
  lockBaseMs: number;
  lockMaxMs: number;
}

const DAY_MS = 24 * 3600_000;

/** Failure counting with a growing lock, for one kind of subject (an account, an IP). */
export class Lockout {
  constructor(
    private readonly store: CounterStore,
    private readonly name: string,
    readonly rule: LockoutRule,
  ) {}

  isLocked(id: string): Promise<boolean> {
    return this.store.isFlagged(`${this.name}:lock:${id}`);
  }

  /** Counts a failure; answers the lock it caused, in ms (0: none). */
  async fail(id: string): Promise<number> {
    const n = await this.store.hit(`${this.name}:fail:${id}`, this.rule.windowMs);
    if (n < this.rule.max) return 0;
    const level = await this.store.hit(`${this.name}:level:${id}`, DAY_MS);
    const ms = Math.min(this.rule.lockBaseMs * 2 ** Math.min(level - 1, 20), this.rule.lockMaxMs);
    await this.store.flag(`${this.name}:lock:${id}`, ms);
    return ms;
  }

  reset(id: string): Promise<void> {
    return this.store.clear([
      `${this.name}:fail:${id}`,
      `${this.name}:level:${id}`,
      `${this.name}:lock:${id}`,
    ]);
  }
}

/** At most `max` uses per `windowMs`. */
export class Quota {
  constructor(
    private readonly store: CounterStore,
    private readonly name: string,
    readonly max: number,
    readonly windowMs: number,
  ) {}

  async take(id: string): Promise<boolean> {
    return (await this.store.hit(`${this.name}:${id}`, this.windowMs)) <= this.max;
  }
}

/** Counter id for an email: case-folded and hashed, so Redis holds no addresses. */
export function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('base64url').slice(0, 32);
}

/** Counter id for an IP: IPv6 clients are counted per /64, since one host usually holds the whole /64. */
export function ipKey(ip: string): string {
  const bare = ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
  if (!isIPv6(bare)) return bare;
  const [head = '', tail = ''] = bare.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = bare.includes('::')
    ? [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t]
    : h;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
