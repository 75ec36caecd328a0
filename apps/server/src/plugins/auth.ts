import type { Role } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { type AppContext, Channels } from '../context.ts';
import { domains, users } from '../db/schema/index.ts';
import { AppError, unauthenticated } from '../lib/errors.ts';

export type UserRow = typeof users.$inferSelect;
export type DomainRow = typeof domains.$inferSelect;

/** Who is asking: decided by the verified id token and the stored account, nothing else. */
export interface Caller {
  uid: string;
  sessionId: string;
  /** The stored user's email (lowercased: it is also the user id). */
  email: string;
  user: UserRow;
  domain: DomainRow;
  role: Role;
  /** The domain's effective premium flag (stored flag or PREMIUM_DOMAINS allow-list). */
  premium: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The authenticated caller, from `Authorization: Bearer <idToken>`; memoised per request.
     * Throws AppError UNAUTHENTICATED (401) or FORBIDDEN (403).
     */
    caller(): Promise<Caller>;
  }
}

/**
 * Body of a `Channels.authInvalidate` message. `uid`/`email` drop one account's cached state;
 * `domain` drops every account of that domain (e.g. a domain was deactivated); `all` drops everything.
 */
export interface AuthInvalidateMessage {
  uid?: string;
  email?: string;
  domain?: string;
  all?: boolean;
}

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

/** Short-lived in-process cache of account state; dropped on `Channels.authInvalidate`. */
class CallerStateCache {
  private readonly entries = new Map<string, { state: AccountState; expires: number }>();
  /** Bumped on every invalidation, so a load that raced one is not cached stale. */
  private epoch = 0;

  constructor(private readonly ctx: AppContext) {}

  async get(uid: string): Promise<AccountState> {
    const hit = this.entries.get(uid);
    if (hit && hit.expires > Date.now()) return hit.state;
    const epoch = this.epoch;
    const state = await loadAccountState(this.ctx, uid);
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

  invalidate(msg: AuthInvalidateMessage): void {
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
}

async function loadAccountState(ctx: AppContext, uid: string): Promise<AccountState> {
  const account = await ctx.identity.findAccount(uid);
  if (!account) return {};
  const email = account.email.toLowerCase();
  const [row] = await ctx.db
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

const caches = new WeakMap<AppContext, CallerStateCache>();

function cacheFor(ctx: AppContext): CallerStateCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new CallerStateCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}

/**
 * Drops cached caller state here at once and on every other replica through the bus.
 * Call it after any change to a user, its identity account or its domain.
 */
export async function invalidateCallers(ctx: AppContext, msg: AuthInvalidateMessage): Promise<void> {
  // Locally first: with Redis the bus message comes back later than the next request may.
  cacheFor(ctx).invalidate(msg);
  try {
    await ctx.bus.publish(Channels.authInvalidate, msg);
  } catch (err) {
    ctx.log.error({ err }, 'could not publish auth invalidation');
  }
}

/**
 * Turns an id token into a Caller: signature and expiry, live session, enabled identity account,
 * active stored user and active domain. Used by the request decorator and by code assist.
 */
export async function resolveCaller(ctx: AppContext, idToken: string): Promise<Caller> {
  const claims = await ctx.identity.verifyIdToken(idToken);
  if (!claims.sid) throw unauthenticated('Invalid id token');
  if (!(await ctx.identity.isSessionActive(claims.sid))) {
    throw unauthenticated('Your session has ended; sign in again');
  }
  const state = await cacheFor(ctx).get(claims.sub);
  if (!state.account || state.account.disabled) throw unauthenticated('This account is disabled');
  if (!state.user || !state.domain)
    throw new AppError('FORBIDDEN', 'There is no user record for this account');
  if (!state.user.active) throw new AppError('FORBIDDEN', 'This user is deactivated');
  if (!state.domain.active) throw new AppError('FORBIDDEN', 'This organisation is deactivated');
  return {
    uid: claims.sub,
    sessionId: claims.sid,
    email: state.user.id,
    user: state.user,
    domain: state.domain,
    role: state.user.role,
    premium: isPremiumDomain(ctx.config, state.domain),
  };
}

/**
 * Whether the account may still act: identity account enabled, user and organisation active.
 * Answers already running check it when their owner changes (a deactivated user stops spending).
 */
export async function isAccountActive(ctx: AppContext, uid: string): Promise<boolean> {
  const state = await cacheFor(ctx).get(uid);
  return !!state.account && !state.account.disabled && !!state.user?.active && !!state.domain?.active;
}

const BEARER_RE = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i;

/** The bearer token of a request, if it has a well-formed one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  return BEARER_RE.exec(header)?.[1];
}

/** `await requireCaller(request)`: the same as `request.caller()`. */
export function requireCaller(request: FastifyRequest): Promise<Caller> {
  return request.caller();
}

/**
 * Decorates every request with `caller()`. Only the Authorization header counts: the
 * `Domain`/`Department` headers and the `domain`/`department`/`user`/`email` query parameters the
 * web client adds are logging hints and never reach this decision.
 */
export async function registerAuth(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const cache = cacheFor(ctx);
  const unsubscribe = ctx.bus.subscribe(Channels.authInvalidate, (message) => {
    if (message && typeof message === 'object') cache.invalidate(message as AuthInvalidateMessage);
  });
  app.addHook('onClose', async () => unsubscribe());

  const memo = new WeakMap<FastifyRequest, Promise<Caller>>();
  app.decorateRequest('caller', function caller(this: FastifyRequest): Promise<Caller> {
    let pending = memo.get(this);
    if (!pending) {
      const token = bearerToken(this);
      pending = token ? resolveCaller(ctx, token) : Promise.reject(unauthenticated());
      memo.set(this, pending);
    }
    return pending;
  });
}
