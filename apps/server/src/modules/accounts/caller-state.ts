import type { IdTokenClaims } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { type AppContext, Channels } from '../../context.ts';
import { domains, users } from '../../db/schema/index.ts';
import type { AuthInvalidateMessage, DomainRow, UserCaller, UserRow } from '../../lib/caller.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { domainDeactivated, noUserRecord, userDeactivated } from './errors.ts';

/** Effective premium: the stored flag, or the domain is in the PREMIUM_DOMAINS allow-list. */
export function isPremiumDomain(config: Pick<Config, 'PREMIUM_DOMAINS'>, domain: DomainRow): boolean {
  return domain.premium || config.PREMIUM_DOMAINS.includes(domain.id.toLowerCase());
}

/** What the caller check needs about one identity account, cached per uid. */
interface AccountState {
  /** Undefined when the identity account no longer exists. */
  account?: { email: string; disabled: boolean };
  user?: UserRow;
  domain?: DomainRow;
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;

/**
 * The accounts module's answer to "who is this verified identity?" (docs/ARCHITECTURE.md#callers): the stored user
 * and domain behind an identity account, kept in a short-lived in-process cache that is dropped on
 * `Channels.authInvalidate` — at once on this replica, through the bus on the others.
 */
export class CallerStates {
  private readonly entries = new Map<string, { state: AccountState; expires: number }>();
  /** Bumped on every invalidation, so a load that raced one is not cached stale. */
  private epoch = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'identity' | 'bus' | 'config' | 'log'>) {
    this.unsubscribe = ctx.bus.subscribe(Channels.authInvalidate, (message) => {
      if (message && typeof message === 'object') this.drop(message as AuthInvalidateMessage);
    });
  }

  /**
   * The caller behind verified id-token claims: enabled identity account, active stored user and
   * active domain. Throws UNAUTHENTICATED (401) or FORBIDDEN (403).
   */
  async userCaller(claims: IdTokenClaims & { sid: string }): Promise<UserCaller> {
    return this.toCaller(claims.sub, claims.sid, await this.get(claims.sub));
  }

  /**
   * `userCaller` from the cache alone, when it holds the account and lets it act; undefined
   * otherwise (then `userCaller` loads it, or says why it is refused).
   */
  peekUserCaller(claims: IdTokenClaims, sid: string): UserCaller | undefined {
    const hit = this.entries.get(claims.sub);
    if (!hit || hit.expires <= Date.now()) return undefined;
    const { account, user, domain } = hit.state;
    if (!account || account.disabled || !user?.active || !domain?.active) return undefined;
    return this.toCaller(claims.sub, sid, hit.state);
  }

  /**
   * The account an API key acts as (docs/ARCHITECTURE.md#callers), under the same checks and the same cache as a
   * session's: a deactivation that drops the cache stops the user's keys at once. No session id.
   */
  async accountCaller(uid: string): Promise<UserCaller> {
    return this.toCaller(uid, '', await this.get(uid));
  }

  /** `accountCaller` from the cache alone, when it holds the account and lets it act. */
  peekAccountCaller(uid: string): UserCaller | undefined {
    const hit = this.entries.get(uid);
    if (!hit || hit.expires <= Date.now()) return undefined;
    const { account, user, domain } = hit.state;
    if (!account || account.disabled || !user?.active || !domain?.active) return undefined;
    return this.toCaller(uid, '', hit.state);
  }

  private toCaller(uid: string, sessionId: string, state: AccountState): UserCaller {
    if (!state.account || state.account.disabled) throw unauthenticated('This account is disabled');
    if (!state.user || !state.domain) throw noUserRecord();
    if (!state.user.active) throw userDeactivated();
    if (!state.domain.active) throw domainDeactivated();
    return {
      kind: 'user',
      uid,
      sessionId,
      email: state.user.id,
      user: state.user,
      domain: state.domain,
      role: state.user.role,
      premium: isPremiumDomain(this.ctx.config, state.domain),
    };
  }

  /**
   * Whether the account may still act: identity account enabled, user and organisation active.
   * Answers already running check it when their owner changes (a deactivated user stops spending).
   */
  async isActive(uid: string): Promise<boolean> {
    const state = await this.get(uid);
    return !!state.account && !state.account.disabled && !!state.user?.active && !!state.domain?.active;
  }

  /**
   * Drops cached caller state here at once and on every other replica through the bus.
   * Call it after any change to a user, its identity account or its domain.
   */
  async invalidate(msg: AuthInvalidateMessage): Promise<void> {
    // Locally first: with Redis the bus message comes back later than the next request may.
    this.drop(msg);
    try {
      await this.ctx.bus.publish(Channels.authInvalidate, msg);
    } catch (err) {
      this.ctx.log.error({ err }, 'could not publish auth invalidation');
    }
  }

  close(): void {
    this.unsubscribe();
  }

  private async get(uid: string): Promise<AccountState> {
    const hit = this.entries.get(uid);
    if (hit && hit.expires > Date.now()) return hit.state;
    const epoch = this.epoch;
    const state = await this.load(uid);
    if (epoch === this.epoch) {
      if (this.entries.size >= CACHE_MAX) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
      this.entries.delete(uid);
      this.entries.set(uid, { state, expires: Date.now() + CACHE_TTL_MS });
    }
    return state;
  }

  private drop(msg: AuthInvalidateMessage): void {
    this.epoch++;
    if (msg.all) {
      this.entries.clear();
      return;
    }
    const email = msg.email?.toLowerCase();
    const domain = msg.domain?.toLowerCase();
    if (msg.uid) this.entries.delete(msg.uid);
    if (!email && !domain) return;
    for (const [uid, { state }] of this.entries) {
      if (
        (email && (state.account?.email.toLowerCase() === email || state.user?.id === email)) ||
        (domain && state.user?.domainId === domain)
      ) {
        this.entries.delete(uid);
      }
    }
  }

  private async load(uid: string): Promise<AccountState> {
    const account = await this.ctx.identity.findAccount(uid);
    if (!account) return {};
    const email = account.email.toLowerCase();
    const [row] = await this.ctx.db
      .select({ user: users, domain: domains })
      .from(users)
      .innerJoin(domains, eq(users.domainId, domains.id))
      .where(eq(users.id, email))
      .limit(1);
    return {
      account: { email, disabled: account.disabled },
      ...(row ? { user: row.user, domain: row.domain } : {}),
    };
  }
}
