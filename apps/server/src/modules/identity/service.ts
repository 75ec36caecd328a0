import { randomBytes } from 'node:crypto';
import {
  EMBEDDED_AUDIENCE,
  type IdTokenClaims,
  isEmailAddress,
  type Locale,
  type PasswordPolicy,
} from '@assistente/contracts';
import { type AppContext, Channels } from '../../context.ts';
import { hashSecret, newSecret, newSessionId, newUid } from './crypto.ts';
import { passwordMail } from './emails.ts';
import {
  accountDisabled,
  accountEmailTaken,
  accountNotFound,
  displayNameTooLong,
  identityError,
  idTokenRefused,
  invalidEmail,
  weakPassword,
} from './errors.ts';
import { keyFilePath, loadSigningKey } from './keys.ts';
import { hashPassword, needsRehash, PASSWORD_POLICY, passwordProblem, verifyPassword } from './passwords.ts';
import { SessionCache } from './session-cache.ts';
import type { AccountRow, SessionRow } from './store.ts';
import * as store from './store.ts';
import {
  type CounterStore,
  emailKey,
  FallbackCounterStore,
  ipKey,
  Lockout,
  type LockoutRule,
  MemoryCounterStore,
  Quota,
  RedisCounterStore,
} from './throttle.ts';
import { ID_TOKEN_TTL_SECONDS, TokenSigner } from './tokens.ts';
import type {
  IdentityAccount,
  IdentityService,
  IdpHandoffInput,
  MintedVisitor,
  MintedVisitorSession,
  SessionInfo,
  SessionMeta,
  TokenPair,
  VisitorSubject,
} from './types.ts';
import { describeUserAgent } from './user-agent.ts';
import { MAX_DISPLAY_NAME_LENGTH } from './validation.ts';

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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** On whatever RATE_LIMITS says: these protect credentials, not capacity. */
export const DEFAULT_LIMITS: IdentityLimits = {
  account: { max: 5, windowMs: 15 * MINUTE, lockBaseMs: MINUTE, lockMaxMs: HOUR },
  ip: { max: 50, windowMs: 15 * MINUTE, lockBaseMs: 5 * MINUTE, lockMaxMs: HOUR },
  resetMailsPerEmail: { max: 3, windowMs: HOUR },
  resetMailsPerIp: { max: 20, windowMs: HOUR },
};

const RESET_CODE_TTL_MS = HOUR;
/** An invitation is read later than a reset link the reader just asked for. */
const INVITE_CODE_TTL_MS = 72 * HOUR;
/** A session unused this long ends (ASVS: re-authenticate after an idle period). */
const SESSION_IDLE_MS = 30 * DAY;
/** …and any session ends this long after sign-in, however active. */
const SESSION_MAX_AGE_MS = 90 * DAY;
/** Changing the password through accounts:update needs a sign-in this recent (as Firebase). */
const RECENT_AUTH_MS = 5 * MINUTE;
/** How long a rotated refresh token may stand in for an answer its client never received (lostAnswer). */
export const REUSE_GRACE_MS = 30_000;
const MAX_SECRET_LENGTH = 512;

export interface SignedIn {
  account: AccountRow;
  tokens: TokenPair;
}

/** How long the login page has to exchange a single sign-on's one-time code. */
const IDP_HANDOFF_TTL_MS = 60_000;

export interface SignedInWithIdp extends SignedIn {
  providerId: string;
  subject: string;
  isNewUser: boolean;
}

export interface LookedUp {
  account: AccountRow;
  session: SessionRow;
}

function toAccount(row: AccountRow): IdentityAccount {
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

function toSessionInfo(row: SessionRow): SessionInfo {
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

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const sessionExpired = (s: SessionRow, now: Date) =>
  now.getTime() - s.lastUsedAt.getTime() > SESSION_IDLE_MS ||
  now.getTime() - s.createdAt.getTime() > SESSION_MAX_AGE_MS;

/**
 * The built-in identity provider (docs/ARCHITECTURE.md#identity): accounts, password sign-in, sessions as
 * refresh-token families, id tokens, password reset. Methods of `IdentityService` throw AppError
 * (other modules call them); the HTTP flows below them throw IdentityError (the routes answer it).
 */
export class IdentityServiceImpl implements IdentityService {
  private readonly cache: SessionCache;
  private readonly accountLockout: Lockout;
  private readonly ipLockout: Lockout;
  private readonly resetPerEmail: Quota;
  private readonly resetPerIp: Quota;
  private readonly inflight = new Set<Promise<void>>();

  private constructor(
    private readonly deps: IdentityDeps,
    readonly signer: TokenSigner,
    /** Embedded chats' visitors: their tokens say `aud: embedded` (docs/ARCHITECTURE.md#embed-contract). */
    private readonly visitorSigner: TokenSigner,
    /** Verified instead when there is no account, so unknown emails take as long as known ones. */
    private readonly dummyHash: string,
    counters: CounterStore,
    limits: IdentityLimits,
  ) {
    this.accountLockout = new Lockout(counters, 'signin:account', limits.account);
    this.ipLockout = new Lockout(counters, 'signin:ip', limits.ip);
    this.resetPerEmail = new Quota(
      counters,
      'reset:email',
      limits.resetMailsPerEmail.max,
      limits.resetMailsPerEmail.windowMs,
    );
    this.resetPerIp = new Quota(
      counters,
      'reset:ip',
      limits.resetMailsPerIp.max,
      limits.resetMailsPerIp.windowMs,
    );
    this.cache = new SessionCache(async (sessionId) => {
      const state = await store.sessionState(this.deps.db, sessionId);
      return state
        ? { active: !state.revoked && !state.disabled, uid: state.uid }
        : { active: false, absent: true };
    });
    deps.bus.subscribe(Channels.authInvalidate, (message) => {
      if (!message || typeof message !== 'object') return;
      const m = message as { uid?: unknown; all?: unknown };
      if (typeof m.uid === 'string') this.cache.invalidate(m.uid);
      else if (m.all === true) this.cache.invalidate();
    });
  }

  static async create(deps: IdentityDeps, opts: { limits?: Partial<IdentityLimits> } = {}) {
    const { config, log } = deps;
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
    const dummyHash = await hashPassword(randomBytes(24).toString('base64url'));
    const counters: CounterStore = deps.redis
      ? new FallbackCounterStore(
          new RedisCounterStore(deps.redis, `${deps.keyPrefix}identity:`),
          new MemoryCounterStore(),
          log,
        )
      : new MemoryCounterStore();
    const visitorSigner = new TokenSigner(key, signer.issuer, EMBEDDED_AUDIENCE, 'visitor');
    return new IdentityServiceImpl(deps, signer, visitorSigner, dummyHash, counters, {
      ...DEFAULT_LIMITS,
      ...opts.limits,
    });
  }

  // ── IdentityService: used by accounts, code assist, bootstrap and the CLI ─────────────────

  async createAccount(input: {
    email: string;
    password?: string;
    displayName?: string;
    emailVerified?: boolean;
  }): Promise<IdentityAccount> {
    const email = input.email.trim();
    if (!isEmailAddress(email)) throw invalidEmail();
    const displayName = (input.displayName ?? '').trim();
    if (displayName.length > MAX_DISPLAY_NAME_LENGTH) {
      throw displayNameTooLong(MAX_DISPLAY_NAME_LENGTH);
    }
    let passwordHash: string | null = null;
    if (input.password !== undefined) {
      this.assertPasswordOk(input.password, email);
      passwordHash = await hashPassword(input.password);
    }
    try {
      const row = await store.insertAccount(this.deps.db, {
        uid: newUid(),
        email,
        displayName,
        emailVerified: input.emailVerified ?? false,
        passwordHash,
        passwordUpdatedAt: passwordHash ? new Date() : null,
      });
      return toAccount(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw accountEmailTaken();
      throw err;
    }
  }

  async findAccountByEmail(email: string): Promise<IdentityAccount | undefined> {
    const e = email.trim();
    if (!e || e.length > 254) return undefined;
    const row = await store.findAccountByEmail(this.deps.db, e);
    return row && toAccount(row);
  }

  async findAccount(uid: string): Promise<IdentityAccount | undefined> {
    if (!uid || uid.length > 128) return undefined;
    const row = await store.findAccountByUid(this.deps.db, uid);
    return row && toAccount(row);
  }

  async setDisabled(uid: string, disabled: boolean): Promise<void> {
    const now = new Date();
    const found = await this.deps.db.transaction(async (tx) => {
      if (!(await store.updateAccount(tx, uid, { disabled }))) return false;
      if (disabled) await store.revokeSessionsOf(tx, uid, 'account_disabled', now);
      return true;
    });
    if (!found) throw accountNotFound();
    await this.invalidate(uid);
  }

  async deleteAccount(uid: string): Promise<void> {
    // Sessions, tokens and codes go with it (ON DELETE CASCADE).
    await store.deleteAccount(this.deps.db, uid);
    await this.invalidate(uid);
  }

  async setPassword(uid: string, password: string): Promise<void> {
    const account = await store.findAccountByUid(this.deps.db, uid);
    if (!account) throw accountNotFound();
    this.assertPasswordOk(password, account.email);
    const passwordHash = await hashPassword(password);
    const now = new Date();
    await this.deps.db.transaction(async (tx) => {
      await store.updateAccount(tx, uid, { passwordHash, passwordUpdatedAt: now });
      await store.voidOobCodesOf(tx, uid, now);
      await store.revokeSessionsOf(tx, uid, 'password_changed', now);
    });
    await this.invalidate(uid);
    await this.accountLockout.reset(emailKey(account.email));
  }

  async issueSession(uid: string, meta: SessionMeta): Promise<TokenPair> {
    const account = await store.findAccountByUid(this.deps.db, uid);
    if (!account) throw accountNotFound();
    if (account.disabled) throw accountDisabled();
    return this.openSession(account, meta, new Date());
  }

  mintVisitorSession(visitor: MintedVisitor, now = new Date()): MintedVisitorSession {
    const displayName = visitor.displayName.trim().slice(0, MAX_DISPLAY_NAME_LENGTH);
    // The session's id is the hash of its first refresh token, as the refresh-token table keeps it:
    // the session needs no row until it is used, and its id token carries only the hash. (Deriving
    // the token from the id instead took an HMAC, a third of a public session call's crypto.)
    const refreshToken = newSecret();
    const sessionId = hashSecret(refreshToken);
    const idToken = this.visitorSigner.signVisitorToken(
      { uid: visitor.uid, displayName, sessionId, authTime: now },
      now,
    );
    return {
      idToken,
      refreshToken,
      expiresIn: String(ID_TOKEN_TTL_SECONDS),
      sessionId,
      uid: visitor.uid,
      authTime: now,
    };
  }

  async storeVisitorSession(
    visitor: VisitorSubject,
    session: { sessionId: string; authTime: Date },
    meta: Omit<SessionMeta, 'kind'>,
  ): Promise<boolean> {
    const now = new Date();
    // Passwordless: nobody can sign in as a visitor, only be issued a session by the embed.
    const account = await store.upsertPasswordlessAccount(this.deps.db, {
      uid: visitor.uid,
      email: visitor.email,
      displayName: visitor.displayName.trim().slice(0, MAX_DISPLAY_NAME_LENGTH),
    });
    if (account.disabled) return false;
    await store.insertSessionOnce(
      this.deps.db,
      {
        id: session.sessionId,
        uid: visitor.uid,
        kind: 'embedded',
        name: meta.name.slice(0, 200),
        ip: meta.ip?.slice(0, 64) ?? null,
        userAgent: meta.userAgent?.slice(0, 512) ?? null,
        authTime: session.authTime,
        lastUsedAt: now,
      },
      // A minted session's id is its first refresh token's hash (mintVisitorSession).
      session.sessionId,
    );
    // Stored now (or by a request that raced this one, or long ago and since ended): ask afresh.
    this.cache.forget(session.sessionId);
    return this.cache.get(session.sessionId);
  }

  async sessionStatus(sessionId: string): Promise<'active' | 'ended' | 'absent'> {
    if (typeof sessionId !== 'string' || !sessionId || sessionId.length > 128) return 'ended';
    const state = await this.cache.state(sessionId);
    return state.active ? 'active' : state.absent ? 'absent' : 'ended';
  }

  async verifyVisitorToken(token: string): Promise<IdTokenClaims> {
    const check = await this.visitorSigner.checkIdToken(token);
    if (!check.ok) {
      throw idTokenRefused(check.reason === 'expired');
    }
    return check.claims;
  }

  peekVisitorToken(token: string): IdTokenClaims | undefined {
    return typeof token === 'string' && token.length <= 8192
      ? this.visitorSigner.peekIdToken(token)
      : undefined;
  }

  async revokeSessionsByUidPrefix(prefix: string, reason: string): Promise<void> {
    if (!prefix) throw new Error('a uid prefix is required');
    await store.revokeSessionsByUidPrefix(this.deps.db, prefix, reason, new Date());
    // Only the refresh tokens matter here: whoever owns these accounts (an embed) already refuses
    // their id tokens on every replica, so other replicas' session caches may age out on their own.
    this.cache.invalidate();
  }

  async verifyIdToken(token: string): Promise<IdTokenClaims> {
    const check = await this.signer.checkIdToken(token);
    if (!check.ok) {
      throw idTokenRefused(check.reason === 'expired');
    }
    return check.claims;
  }

  peekIdToken(token: string): IdTokenClaims | undefined {
    return typeof token === 'string' && token.length <= 8192 ? this.signer.peekIdToken(token) : undefined;
  }

  peekSessionActive(sessionId: string): boolean | undefined {
    if (typeof sessionId !== 'string' || !sessionId || sessionId.length > 128) return undefined;
    return this.cache.peek(sessionId);
  }

  isSessionActive(sessionId: string): Promise<boolean> {
    if (typeof sessionId !== 'string' || !sessionId || sessionId.length > 128) return Promise.resolve(false);
    return this.cache.get(sessionId);
  }

  async listSessions(uid: string): Promise<SessionInfo[]> {
    const now = Date.now();
    const rows = await store.listLiveSessions(this.deps.db, uid, new Date(now - SESSION_IDLE_MS));
    return rows.filter((r) => now - r.createdAt.getTime() <= SESSION_MAX_AGE_MS).map(toSessionInfo);
  }

  async revokeSession(sessionId: string, reason: string): Promise<void> {
    const uid = await store.revokeSession(this.deps.db, sessionId, reason, new Date());
    if (uid) await this.invalidate(uid);
  }

  async revokeAllSessions(uid: string, reason: string, opts: { except?: string } = {}): Promise<void> {
    await store.revokeSessionsOf(this.deps.db, uid, reason, new Date(), opts.except);
    await this.invalidate(uid);
  }

  async findRefreshTokenSession(
    refreshToken: string,
  ): Promise<{ sessionId: string; uid: string } | undefined> {
    if (!refreshToken || refreshToken.length > MAX_SECRET_LENGTH) return undefined;
    const found = await store.findRefreshToken(this.deps.db, hashSecret(refreshToken));
    if (!found || found.rotatedAt || found.session.revokedAt || found.account.disabled) return undefined;
    if (sessionExpired(found.session, new Date())) return undefined;
    return { sessionId: found.session.id, uid: found.session.uid };
  }

  async sendPasswordResetMail(
    email: string,
    opts: { locale: Locale; kind: 'reset' | 'invite'; linkBase: string },
  ): Promise<void> {
    const e = email.trim();
    if (!isEmailAddress(e)) return;
    const account = await store.findAccountByEmail(this.deps.db, e);
    if (!account || account.disabled) return;
    const code = newSecret();
    const now = new Date();
    const ttl = opts.kind === 'invite' ? INVITE_CODE_TTL_MS : RESET_CODE_TTL_MS;
    await store.insertOobCode(this.deps.db, {
      codeHash: hashSecret(code),
      uid: account.uid,
      requestType: opts.kind === 'invite' ? 'INVITE' : 'PASSWORD_RESET',
      expiresAt: new Date(now.getTime() + ttl),
      createdAt: now,
    });
    // `invite=1` only words the page as a welcome (and signs the newcomer in); the code decides the rest.
    const link = `${opts.linkBase}/auth/reset-password?oobCode=${encodeURIComponent(code)}${opts.kind === 'invite' ? '&invite=1' : ''}`;
    await this.deps.mailer.send(
      passwordMail({ kind: opts.kind, locale: opts.locale, to: account.email, link, validHours: ttl / HOUR }),
    );
  }

  async createIdpHandoff(input: IdpHandoffInput): Promise<string> {
    const code = newSecret();
    await store.insertIdpHandoff(this.deps.db, {
      codeHash: hashSecret(code),
      uid: input.uid,
      providerId: input.providerId,
      subject: input.subject.slice(0, 255),
      isNewUser: input.isNewUser,
      ip: input.ip?.slice(0, 64) ?? null,
      userAgent: input.userAgent?.slice(0, 512) ?? null,
      expiresAt: new Date(Date.now() + IDP_HANDOFF_TTL_MS),
    });
    return code;
  }

  // ── HTTP flows (routes.ts): these throw IdentityError ──────────────────────────────────────

  /** accounts:signInWithPassword. Unknown email, wrong password and locked account look the same. */
  async signInWithPassword(rawEmail: string, password: string, client: ClientInfo): Promise<SignedIn> {
    const email = rawEmail.trim();
    if (!email) throw identityError('MISSING_EMAIL');
    if (!isEmailAddress(email)) throw identityError('INVALID_EMAIL');
    if (!password) throw identityError('MISSING_PASSWORD');
    const ip = ipKey(client.ip);
    const who = emailKey(email);
    if (await this.ipLockout.isLocked(ip)) throw identityError('TOO_MANY_ATTEMPTS_TRY_LATER');
    const [locked, account] = await Promise.all([
      this.accountLockout.isLocked(who),
      store.findAccountByEmail(this.deps.db, email),
    ]);
    // Always one argon2 verification, whatever is known about the account: same work, same time.
    const matches = await verifyPassword(account?.passwordHash ?? this.dummyHash, password);
    if (locked || !account?.passwordHash || !matches) {
      const [ipLock, accountLock] = await Promise.all([
        this.ipLockout.fail(ip),
        locked ? 0 : this.accountLockout.fail(who),
      ]);
      if (ipLock || accountLock) {
        // The account is named by its counter id only: logs must not confirm which emails exist.
        this.deps.log.warn(
          {
            ip: client.ip,
            account: who,
            lockMs: ipLock ? ipLock : accountLock,
            by: ipLock ? 'ip' : 'account',
          },
          'identity: sign-in locked after repeated failures',
        );
      }
      throw identityError('INVALID_LOGIN_CREDENTIALS');
    }
    // Only now, with the password proven, may the answer say more about the account.
    if (account.disabled) throw identityError('USER_DISABLED');
    await this.accountLockout.reset(who);
    const now = new Date();
    const rehash = needsRehash(account.passwordHash) ? await hashPassword(password) : undefined;
    await store.updateAccount(this.deps.db, account.uid, {
      lastLoginAt: now,
      ...(rehash ? { passwordHash: rehash } : {}),
    });
    const meta: SessionMeta = {
      kind: 'web',
      name: describeUserAgent(client.userAgent),
      ip: client.ip,
      ...(client.userAgent ? { userAgent: client.userAgent } : {}),
    };
    const fresh = { ...account, lastLoginAt: now };
    return { account: fresh, tokens: await this.openSession(fresh, meta, now) };
  }

  /**
   * accounts:signInWithIdp with `postBody` `code=…&providerId=…`: the one-time code a single sign-on
   * callback handed to the login page becomes an ordinary web session. A code seen a second time
   * leaked somewhere, so the session it opened ends too.
   */
  async signInWithIdp(postBody: string, client: ClientInfo): Promise<SignedInWithIdp> {
    const params = new URLSearchParams(postBody);
    const code = params.get('code') ?? '';
    const providerId = params.get('providerId');
    if (!code || code.length > MAX_SECRET_LENGTH) throw identityError('INVALID_IDP_RESPONSE');
    const codeHash = hashSecret(code);
    const now = new Date();
    const handoff = await store.consumeIdpHandoff(this.deps.db, codeHash, now);
    if (!handoff) {
      const seen = await store.findIdpHandoff(this.deps.db, codeHash);
      if (seen?.sessionId) {
        this.deps.log.warn({ uid: seen.uid }, 'identity: a used single sign-on code was presented again');
        await this.revokeSession(seen.sessionId, 'sso_code_reuse');
      }
      throw identityError('INVALID_IDP_RESPONSE');
    }
    if (providerId && providerId !== handoff.providerId) throw identityError('INVALID_IDP_RESPONSE');
    const account = await store.findAccountByUid(this.deps.db, handoff.uid);
    if (!account) throw identityError('USER_NOT_FOUND');
    if (account.disabled) throw identityError('USER_DISABLED');
    // The provider verified the address, so the account's is now verified too.
    await store.updateAccount(this.deps.db, account.uid, { lastLoginAt: now, emailVerified: true });
    const userAgent = client.userAgent ?? handoff.userAgent ?? undefined;
    const meta: SessionMeta = {
      kind: 'web',
      name: describeUserAgent(userAgent),
      ip: client.ip,
      ...(userAgent ? { userAgent } : {}),
    };
    const fresh = { ...account, lastLoginAt: now, emailVerified: true };
    const tokens = await this.openSession(fresh, meta, now);
    await store.setIdpHandoffSession(this.deps.db, codeHash, tokens.sessionId);
    return {
      account: fresh,
      tokens,
      providerId: handoff.providerId,
      subject: handoff.subject,
      isNewUser: handoff.isNewUser,
    };
  }

  /**
   * grant_type=refresh_token. Rotates on every use; a token presented a second time is a replay
   * and ends its whole session, so whichever of thief and owner comes second is signed out — with
   * one exception (lostAnswer).
   */
  async refresh(refreshToken: string): Promise<SignedIn> {
    if (!refreshToken) throw identityError('MISSING_REFRESH_TOKEN');
    if (refreshToken.length > MAX_SECRET_LENGTH) throw identityError('INVALID_REFRESH_TOKEN');
    const presented = hashSecret(refreshToken);
    const found = await store.findRefreshToken(this.deps.db, presented);
    if (!found) throw identityError('INVALID_REFRESH_TOKEN');
    const { session, account } = found;
    if (account.disabled) throw identityError('USER_DISABLED');
    if (session.revokedAt) throw identityError('TOKEN_EXPIRED');
    const now = new Date();
    if (found.rotatedAt) {
      const reissued = await this.lostAnswer(presented, found, now);
      if (reissued) return { account, tokens: await this.tokensFor(account, session, reissued) };
      await this.endReplayedSession(session);
      throw identityError('TOKEN_EXPIRED');
    }
    if (sessionExpired(session, now)) {
      await this.revokeSession(session.id, 'expired');
      throw identityError('TOKEN_EXPIRED');
    }
    const next = await this.rotate(presented, presented, session.id, now);
    if (!next) {
      await this.endReplayedSession(session);
      throw identityError('TOKEN_EXPIRED');
    }
    return { account, tokens: await this.tokensFor(account, session, next) };
  }

  /**
   * A page that unloads while its refresh is in flight never stores the answer, so its next load
   * presents the rotated token again: not a theft, and signing the user out for reloading would be
   * wrong. Within REUSE_GRACE_MS of the rotation, while the token handed out for it is still unused,
   * that successor is retired and a new one issued instead. The successor stays a tripwire: whoever
   * presents it later (a thief racing the owner, or the owner after a thief) ends the session.
   * Returns the new refresh token, or null when this is a replay.
   */
  private async lostAnswer(
    presented: string,
    found: { rotatedAt: Date | null; replacedBy: string | null; session: SessionRow },
    now: Date,
  ): Promise<string | null> {
    const { rotatedAt, replacedBy, session } = found;
    if (!rotatedAt || !replacedBy || now.getTime() - rotatedAt.getTime() > REUSE_GRACE_MS) return null;
    if (sessionExpired(session, now)) return null;
    return await this.rotate(replacedBy, presented, session.id, now);
  }

  /**
   * Retires `retire` and hands out a new token standing for `presented`; null when `retire` was
   * already used. Retiring before answering makes a concurrent replay find the token used.
   */
  private async rotate(retire: string, presented: string, sessionId: string, now: Date) {
    const next = newSecret();
    const rotated = await this.deps.db.transaction(async (tx) => {
      if (!(await store.markRotated(tx, retire, now))) return false;
      await store.insertRefreshToken(tx, hashSecret(next), sessionId, now);
      await store.setReplacedBy(tx, presented, hashSecret(next));
      await store.touchSession(tx, sessionId, now);
      return true;
    });
    return rotated ? next : null;
  }

  /** v2/accounts:revokeToken: ends the session of a refresh token. Unknown tokens are not an error (RFC 7009). */
  async revokeRefreshToken(refreshToken: string): Promise<void> {
    if (!refreshToken || refreshToken.length > MAX_SECRET_LENGTH) return;
    const found = await store.findRefreshToken(this.deps.db, hashSecret(refreshToken));
    if (found) await this.revokeSession(found.session.id, 'signed_out');
  }

  /**
   * accounts:sendOobCode (PASSWORD_RESET). The answer never depends on the account: limits are
   * silent and the mail goes out after the response, so its time says nothing either.
   */
  async requestPasswordReset(rawEmail: string, locale: Locale, client: ClientInfo): Promise<void> {
    const email = rawEmail.trim();
    if (!email) throw identityError('MISSING_EMAIL');
    if (!isEmailAddress(email)) throw identityError('INVALID_EMAIL');
    const [ipOk, emailOk] = await Promise.all([
      this.resetPerIp.take(ipKey(client.ip)),
      this.resetPerEmail.take(emailKey(email)),
    ]);
    if (!ipOk || !emailOk) {
      this.deps.log.info(
        { ip: client.ip, limit: ipOk ? 'email' : 'ip' },
        'identity: password reset mail not sent (rate limit)',
      );
      return;
    }
    this.inBackground(
      this.sendPasswordResetMail(email, {
        locale,
        kind: 'reset',
        linkBase: client.linkBase ?? this.deps.config.publicUrl,
      }),
      'password reset mail',
    );
  }

  /** accounts:resetPassword with only `oobCode`: is the link still good, and for whom. */
  async checkResetCode(oobCode: string, client: ClientInfo): Promise<{ email: string }> {
    const row = await this.usableCode(oobCode, client);
    return { email: row.account.email };
  }

  /** accounts:resetPassword with `newPassword`: sets it, uses the code, ends every session. */
  async resetPassword(oobCode: string, newPassword: string, client: ClientInfo): Promise<{ email: string }> {
    const row = await this.usableCode(oobCode, client);
    const problem = passwordProblem(newPassword, { email: row.account.email });
    if (problem) throw identityError('PASSWORD_DOES_NOT_MEET_REQUIREMENTS', problem);
    const passwordHash = await hashPassword(newPassword);
    const now = new Date();
    const uid = await this.deps.db.transaction(async (tx) => {
      const used = await store.consumeOobCode(tx, hashSecret(oobCode), now);
      if (!used) return undefined;
      // Following the link proves the mailbox, so the address is verified too.
      await store.updateAccount(tx, used, { passwordHash, passwordUpdatedAt: now, emailVerified: true });
      await store.voidOobCodesOf(tx, used, now);
      await store.revokeSessionsOf(tx, used, 'password_reset', now);
      return used;
    });
    if (!uid) throw identityError('INVALID_OOB_CODE');
    this.deps.log.info({ uid, ip: client.ip }, 'identity: password reset; every session ended');
    await this.invalidate(uid);
    await this.accountLockout.reset(emailKey(row.account.email));
    return { email: row.account.email };
  }

  /**
   * accounts:update. A new password needs a recent sign-in, ends every other session and rotates
   * the caller's tokens (answered back). A display name alone changes no session.
   */
  async updateAccount(
    idToken: string,
    changes: { password?: string; displayName?: string },
  ): Promise<{ account: AccountRow; tokens?: TokenPair }> {
    const { account, session } = await this.authenticate(idToken);
    const displayName = changes.displayName?.trim();
    if (displayName !== undefined && displayName.length > MAX_DISPLAY_NAME_LENGTH) {
      throw identityError(
        'INVALID_ARGUMENT',
        `Display name must have at most ${MAX_DISPLAY_NAME_LENGTH} characters`,
      );
    }
    const now = new Date();
    if (changes.password === undefined) {
      if (displayName === undefined) return { account };
      await store.updateAccount(this.deps.db, account.uid, { displayName });
      return { account: { ...account, displayName } };
    }
    if (now.getTime() - session.authTime.getTime() > RECENT_AUTH_MS) {
      throw identityError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN');
    }
    const problem = passwordProblem(changes.password, { email: account.email });
    if (problem) throw identityError('PASSWORD_DOES_NOT_MEET_REQUIREMENTS', problem);
    const passwordHash = await hashPassword(changes.password);
    const next = newSecret();
    await this.deps.db.transaction(async (tx) => {
      await store.updateAccount(tx, account.uid, {
        passwordHash,
        passwordUpdatedAt: now,
        ...(displayName !== undefined ? { displayName } : {}),
      });
      await store.voidOobCodesOf(tx, account.uid, now);
      await store.revokeSessionsOf(tx, account.uid, 'password_changed', now, session.id);
      await store.rotateAllOfSession(tx, session.id, now);
      await store.insertRefreshToken(tx, hashSecret(next), session.id, now);
      await store.touchSession(tx, session.id, now);
    });
    this.deps.log.info({ uid: account.uid }, 'identity: password changed; every other session ended');
    await this.invalidate(account.uid);
    const updated: AccountRow = {
      ...account,
      passwordHash,
      passwordUpdatedAt: now,
      ...(displayName !== undefined ? { displayName } : {}),
    };
    return { account: updated, tokens: await this.tokensFor(updated, session, next) };
  }

  /** accounts:lookup: the caller's own account, from its id token. */
  lookup(idToken: string): Promise<LookedUp> {
    return this.authenticate(idToken);
  }

  passwordPolicy(): PasswordPolicy {
    return PASSWORD_POLICY;
  }

  jwks() {
    return this.signer.jwks();
  }

  openIdConfiguration() {
    const base = `${this.deps.config.publicUrl}/identity`;
    return {
      issuer: this.signer.issuer,
      jwks_uri: `${base}/jwks.json`,
      token_endpoint: `${base}/v1/token`,
      revocation_endpoint: `${base}/v2/accounts:revokeToken`,
      grant_types_supported: ['password', 'refresh_token'],
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [this.signer.alg],
      claims_supported: [
        'iss',
        'aud',
        'sub',
        'iat',
        'exp',
        'auth_time',
        'email',
        'email_verified',
        'name',
        'user_id',
        'sid',
      ],
    };
  }

  /** Waits for mails and housekeeping started in the background (on shutdown, in tests). */
  async drain(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  private assertPasswordOk(password: string, email: string): void {
    const problem = passwordProblem(password, { email });
    if (problem) {
      throw weakPassword(problem);
    }
  }

  /** An id token that is valid, of a live session, of an existing enabled account. */
  private async authenticate(idToken: string): Promise<LookedUp> {
    if (!idToken) throw identityError('INVALID_ID_TOKEN');
    const check = await this.signer.checkIdToken(idToken);
    if (!check.ok || !check.claims.sid) throw identityError('INVALID_ID_TOKEN');
    const [account, session] = await Promise.all([
      store.findAccountByUid(this.deps.db, check.claims.sub),
      store.findSession(this.deps.db, check.claims.sid),
    ]);
    if (!account) throw identityError('USER_NOT_FOUND');
    if (!session || session.uid !== account.uid) throw identityError('INVALID_ID_TOKEN');
    if (account.disabled) throw identityError('USER_DISABLED');
    if (session.revokedAt) throw identityError('TOKEN_EXPIRED');
    return { account, session };
  }

  private async usableCode(oobCode: string, client: ClientInfo) {
    if (!oobCode) throw identityError('MISSING_OOB_CODE');
    const ip = ipKey(client.ip);
    if (await this.ipLockout.isLocked(ip)) throw identityError('TOO_MANY_ATTEMPTS_TRY_LATER');
    const row =
      oobCode.length <= MAX_SECRET_LENGTH
        ? await store.findOobCode(this.deps.db, hashSecret(oobCode))
        : undefined;
    if (!row || row.code.usedAt) {
      if (await this.ipLockout.fail(ip)) {
        this.deps.log.warn({ ip: client.ip }, 'identity: IP locked after repeated invalid reset codes');
      }
      throw identityError('INVALID_OOB_CODE');
    }
    if (row.code.expiresAt.getTime() <= Date.now()) throw identityError('EXPIRED_OOB_CODE');
    if (row.account.disabled) throw identityError('USER_DISABLED');
    return row;
  }

  private async openSession(account: AccountRow, meta: SessionMeta, now: Date): Promise<TokenPair> {
    const refreshToken = newSecret();
    const session = await this.deps.db.transaction(async (tx) => {
      const s = await store.insertSession(tx, {
        id: newSessionId(),
        uid: account.uid,
        kind: meta.kind,
        name: meta.name.slice(0, 200),
        ip: meta.ip?.slice(0, 64) ?? null,
        userAgent: meta.userAgent?.slice(0, 512) ?? null,
        authTime: now,
        lastUsedAt: now,
      });
      await store.insertRefreshToken(tx, hashSecret(refreshToken), s.id, now);
      return s;
    });
    return this.tokensFor(account, session, refreshToken);
  }

  private async tokensFor(
    account: AccountRow,
    session: SessionRow,
    refreshToken: string,
  ): Promise<TokenPair> {
    const subject = {
      uid: account.uid,
      displayName: account.displayName,
      sessionId: session.id,
      authTime: session.authTime,
    };
    // A visitor's session keeps minting visitor tokens, whoever refreshes it.
    const idToken =
      session.kind === 'embedded'
        ? this.visitorSigner.signVisitorToken(subject)
        : this.signer.signIdToken({ ...subject, email: account.email, emailVerified: account.emailVerified });
    return {
      idToken,
      refreshToken,
      expiresIn: String(ID_TOKEN_TTL_SECONDS),
      sessionId: session.id,
      uid: account.uid,
    };
  }

  private async endReplayedSession(session: SessionRow): Promise<void> {
    this.deps.log.warn(
      { uid: session.uid, sessionId: session.id },
      'identity: a rotated refresh token was presented again; the session is revoked',
    );
    await this.revokeSession(session.id, 'refresh_token_reuse');
  }

  /** Drops cached session state here at once, and on every replica through the bus. */
  private async invalidate(uid: string): Promise<void> {
    this.cache.invalidate(uid);
    try {
      await this.deps.bus.publish(Channels.authInvalidate, { uid });
    } catch (err) {
      this.deps.log.error({ err, uid }, 'identity: could not publish auth invalidation');
    }
  }

  private inBackground(work: Promise<void>, what: string): void {
    const tracked: Promise<void> = work
      .catch((err: unknown) => this.deps.log.error({ err }, `identity: ${what} failed`))
      .finally(() => this.inflight.delete(tracked));
    this.inflight.add(tracked);
  }

  /**
   * Deletes what no sign-in can use any more: used or expired codes after a day, revoked sessions
   * after 30 days (kept that long for the audit of who was signed in), idle ones 30 days past idling out.
   */
  async purgeLeftovers(now = Date.now()): Promise<void> {
    await store.purgeStale(this.deps.db, {
      codesBefore: new Date(now - DAY),
      revokedBefore: new Date(now - 30 * DAY),
      idleBefore: new Date(now - SESSION_IDLE_MS - 30 * DAY),
    });
  }
}
