import { randomBytes } from 'node:crypto';
import { EMBEDDED_AUDIENCE } from '@assistente/contracts';
import { type AppContext, Channels } from '../../context.ts';
import { keyFilePath, loadSigningKey } from './keys.ts';
import { hashPassword } from './passwords.ts';
import { SessionCache } from './session-cache.ts';
import type { AccountRow, SessionRow } from './store.ts';
import * as store from './store.ts';
import {
  type CounterStore,
  FallbackCounterStore,
  Lockout,
  type LockoutRule,
  MemoryCounterStore,
  Quota,
  RedisCounterStore,
} from './throttle.ts';
import { TokenSigner } from './tokens.ts';
import type { IdentityAccount, SessionInfo, TokenPair } from './types.ts';

/**
 * What every identity operation shares (docs/ARCHITECTURE.md#identity): the signing keys, the session
 * cache, the sign-in and reset-mail counters. The operations are functions over it, one file per
 * concern (accounts, sessions, sign-in, password reset, id tokens); `service.ts` only gathers them.
 */

export type IdentityDeps = Omit<AppContext, 'identity' | 'scheduler' | 'soleWriter' | 'services'>;

/** Who is calling an identity route. */
export interface ClientInfo {
  ip: string;
  userAgent?: string;
  /** Where links mailed for this request point (lib/origin.ts `linkBase`); PUBLIC_URL when absent. */
  linkBase?: string;
}

export interface IdentityLimits {
  /** Failed sign-ins per account (email, case-folded). A locked account answers like a wrong password. */
  account: LockoutRule;
  /** Failed sign-ins and bad reset codes per IP (IPv6 per /64). Answers TOO_MANY_ATTEMPTS_TRY_LATER. */
  ip: LockoutRule;
  /** Reset mails per email and per IP; over it, sendOobCode still answers 200 and sends nothing. */
  resetMailsPerEmail: { max: number; windowMs: number };
  resetMailsPerIp: { max: number; windowMs: number };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** On whatever RATE_LIMITS says: these protect credentials, not capacity. */
export const DEFAULT_LIMITS: IdentityLimits = {
  account: { max: 5, windowMs: 15 * MINUTE, lockBaseMs: MINUTE, lockMaxMs: HOUR },
  ip: { max: 50, windowMs: 15 * MINUTE, lockBaseMs: 5 * MINUTE, lockMaxMs: HOUR },
  resetMailsPerEmail: { max: 3, windowMs: HOUR },
  resetMailsPerIp: { max: 20, windowMs: HOUR },
};

/** A session unused this long ends (ASVS: re-authenticate after an idle period). */
export const SESSION_IDLE_MS = 30 * DAY;
/** …and any session ends this long after sign-in, however active. */
export const SESSION_MAX_AGE_MS = 90 * DAY;
export const MAX_SECRET_LENGTH = 512;

export interface SignedIn {
  account: AccountRow;
  tokens: TokenPair;
}

export interface LookedUp {
  account: AccountRow;
  session: SessionRow;
}

export interface IdentityCore {
  readonly deps: IdentityDeps;
  readonly signer: TokenSigner;
  /** Embedded chats' visitors: their tokens say `aud: embedded` (docs/ARCHITECTURE.md#embed-contract). */
  readonly visitorSigner: TokenSigner;
  /** Verified instead when there is no account, so unknown emails take as long as known ones. */
  readonly dummyHash: string;
  readonly cache: SessionCache;
  readonly accountLockout: Lockout;
  readonly ipLockout: Lockout;
  readonly resetPerEmail: Quota;
  readonly resetPerIp: Quota;
  readonly inflight: Set<Promise<void>>;
}

/** Loads or creates the signing key, sets up the counters and listens for session invalidations. */
export async function createIdentityCore(
  deps: IdentityDeps,
  opts: { limits?: Partial<IdentityLimits> } = {},
): Promise<IdentityCore> {
  const { config, log } = deps;
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const key = await loadSigningKey({ dataDir: config.dataDir, envKey: config.IDENTITY_PRIVATE_KEY });
  if (key.source === 'generated') {
    log.info(
      { file: keyFilePath(config.dataDir), kid: key.kid },
      'identity: generated a new ES256 signing key',
    );
  }
  if (key.source !== 'env' && config.DATABASE_URL) {
    log.warn(
      'identity: IDENTITY_PRIVATE_KEY is not set; every replica must share DATA_DIR/keys or the same key',
    );
  }
  const signer = new TokenSigner(key, `${config.publicUrl}/identity`, config.PROJECT_ID);
  const counters: CounterStore = deps.redis
    ? new FallbackCounterStore(
        new RedisCounterStore(deps.redis, `${deps.keyPrefix}identity:`),
        new MemoryCounterStore(),
        log,
      )
    : new MemoryCounterStore();
  const cache = new SessionCache(async (sessionId) => {
    const state = await store.sessionState(deps.db, sessionId);
    return state
      ? { active: !state.revoked && !state.disabled, uid: state.uid }
      : { active: false, absent: true };
  });
  deps.bus.subscribe(Channels.authInvalidate, (message) => {
    if (!message || typeof message !== 'object') return;
    const m = message as { uid?: unknown; all?: unknown };
    if (typeof m.uid === 'string') cache.invalidate(m.uid);
    else if (m.all === true) cache.invalidate();
  });
  const { resetMailsPerEmail: perEmail, resetMailsPerIp: perIp } = limits;
  return {
    deps,
    signer,
    visitorSigner: new TokenSigner(key, signer.issuer, EMBEDDED_AUDIENCE, 'visitor'),
    dummyHash: await hashPassword(randomBytes(24).toString('base64url')),
    cache,
    accountLockout: new Lockout(counters, 'signin:account', limits.account),
    ipLockout: new Lockout(counters, 'signin:ip', limits.ip),
    resetPerEmail: new Quota(counters, 'reset:email', perEmail.max, perEmail.windowMs),
    resetPerIp: new Quota(counters, 'reset:ip', perIp.max, perIp.windowMs),
    inflight: new Set(),
  };
}

export function toAccount(row: AccountRow): IdentityAccount {
  return {
    uid: row.uid,
    email: row.email,
    emailVerified: row.emailVerified,
    displayName: row.displayName,
    disabled: row.disabled,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt,
    lastLoginAt: row.lastLoginAt,
  };
}

export function toSessionInfo(row: SessionRow): SessionInfo {
  return {
    id: row.id,
    uid: row.uid,
    kind: row.kind === 'editor' ? 'editor' : 'web',
    name: row.name,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

export const sessionExpired = (s: SessionRow, now: Date) =>
  now.getTime() - s.lastUsedAt.getTime() > SESSION_IDLE_MS ||
  now.getTime() - s.createdAt.getTime() > SESSION_MAX_AGE_MS;

/** Drops cached session state here at once, and on every replica through the bus. */
export async function invalidate(core: IdentityCore, uid: string): Promise<void> {
  core.cache.invalidate(uid);
  try {
    await core.deps.bus.publish(Channels.authInvalidate, { uid });
  } catch (err) {
    core.deps.log.error({ err, uid }, 'identity: could not publish auth invalidation');
  }
}

export function inBackground(core: IdentityCore, work: Promise<void>, what: string): void {
  const tracked: Promise<void> = work
    .catch((err: unknown) => core.deps.log.error({ err }, `identity: ${what} failed`))
    .finally(() => core.inflight.delete(tracked));
  core.inflight.add(tracked);
}
