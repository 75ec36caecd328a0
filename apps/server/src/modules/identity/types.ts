import type { IdTokenClaims, Locale } from '@assistente/contracts';

export interface IdentityAccount {
  uid: string;
  email: string;
  emailVerified: boolean;
  displayName: string;
  disabled: boolean;
  hasPassword: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export interface SessionMeta {
  /** `embedded`: a visitor of an embedded chat (docs/ARCHITECTURE.md#embed-contract); its id tokens have `aud: embedded`. */
  kind: 'web' | 'editor' | 'embedded';
  /** Shown in Settings → sessions, e.g. "Chrome on Linux" or "VS Code". */
  name: string;
  ip?: string;
  userAgent?: string;
}

export interface TokenPair {
  idToken: string;
  refreshToken: string;
  /** Seconds, as a string (Identity Toolkit's format). */
  expiresIn: string;
  sessionId: string;
  uid: string;
}

/** Whom a visitor's session is stored for (embedded/visitor-sessions.ts mints it). */
export interface VisitorSubject {
  uid: string;
  displayName: string;
  email: string;
}

/** Whom a visitor's id token names: the embed's visitor and their session. */
export interface VisitorTokenSubject {
  uid: string;
  displayName: string;
  sessionId: string;
  authTime: Date;
}

export interface SessionInfo {
  id: string;
  uid: string;
  kind: 'web' | 'editor';
  name: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  lastUsedAt: Date;
}

/**
 * The identity service as other modules use it (accounts, codeassist, bootstrap, CLI).
 * HTTP routes under /identity are its own business.
 */
export interface IdentityService {
  createAccount(input: {
    email: string;
    password?: string;
    displayName?: string;
    emailVerified?: boolean;
  }): Promise<IdentityAccount>;
  findAccountByEmail(email: string): Promise<IdentityAccount | undefined>;
  findAccount(uid: string): Promise<IdentityAccount | undefined>;
  /** Of these lower-cased emails, the ones whose account has no password yet (invited, not signed in). */
  awaitingPassword(emails: readonly string[]): Promise<Set<string>>;
  /** Disabling also ends every session of the account. */
  setDisabled(uid: string, disabled: boolean): Promise<void>;
  deleteAccount(uid: string): Promise<void>;
  /** Sets a password (policy enforced) and ends every session. */
  setPassword(uid: string, password: string): Promise<void>;
  issueSession(uid: string, meta: SessionMeta): Promise<TokenPair>;
  /**
   * A visitor's id token (`aud: embedded`, `sub` = `va:{virtualAccountId}:{visitorId}`); the embedded
   * module mints the session around it (embedded/visitor-sessions.ts), the key stays here.
   */
  signVisitorToken(subject: VisitorTokenSubject, now?: Date): { idToken: string; expiresIn: string };
  /**
   * Stores a minted visitor session (idempotent, several replicas may race); whether it is live
   * afterwards: false when it ended since, or the visitor is blocked.
   */
  storeVisitorSession(
    visitor: VisitorSubject,
    session: { sessionId: string; authTime: Date },
    meta: Omit<SessionMeta, 'kind'>,
  ): Promise<boolean>;
  /** As `isSessionActive`, telling an ended session from one never stored (a minted visitor's). */
  sessionStatus(sessionId: string): Promise<'active' | 'ended' | 'absent'>;
  /** As `verifyIdToken`, for visitors' tokens (`aud: embedded`); no user token passes it, nor the reverse. */
  verifyVisitorToken(token: string): Promise<IdTokenClaims>;
  peekVisitorToken(token: string): IdTokenClaims | undefined;
  /** Ends every session of the accounts whose uid starts with `prefix` (an embed's visitors). */
  revokeSessionsByUidPrefix(prefix: string, reason: string): Promise<void>;
  /** Verifies signature, issuer, audience and expiry; throws AppError UNAUTHENTICATED otherwise. */
  verifyIdToken(token: string): Promise<IdTokenClaims>;
  /** Cached; invalidated through the bus when a session ends. */
  isSessionActive(sessionId: string): Promise<boolean>;
  /**
   * Synchronous answers from the caches behind `verifyIdToken` and `isSessionActive`, when they
   * hold one (undefined otherwise): they are as fresh as the asynchronous calls.
   */
  peekIdToken(token: string): IdTokenClaims | undefined;
  peekSessionActive(sessionId: string): boolean | undefined;
  listSessions(uid: string): Promise<SessionInfo[]>;
  revokeSession(sessionId: string, reason: string): Promise<void>;
  revokeAllSessions(uid: string, reason: string, opts?: { except?: string }): Promise<void>;
  /**
   * The live session a current (unrotated) refresh token belongs to, without rotating it.
   * The live session a current (not rotated) refresh token belongs to; code assist uses it to
   * check the login page's token pair.
   */
  findRefreshTokenSession(refreshToken: string): Promise<{ sessionId: string; uid: string } | undefined>;
  /**
   * Mails a link to /auth/reset-password?oobCode=…; silent for unknown emails.
   * `kind: 'invite'` words it as an invitation to set a first password.
   */
  sendPasswordResetMail(
    email: string,
    opts: { locale: Locale; kind: 'reset' | 'invite'; linkBase: string },
  ): Promise<void>;
  /**
   * After a single sign-on the SSO module verified: a one-time code (60 s) the login page exchanges
   * through accounts:signInWithIdp for an ordinary session, so tokens never travel in a URL.
   */
  createIdpHandoff(input: IdpHandoffInput): Promise<string>;
}

export interface IdpHandoffInput {
  uid: string;
  providerId: string;
  /** The person's subject at the provider. */
  subject: string;
  isNewUser: boolean;
  ip?: string;
  userAgent?: string;
}
