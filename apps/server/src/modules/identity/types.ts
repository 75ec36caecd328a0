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
  kind: 'web' | 'editor';
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
  /** Disabling also ends every session of the account. */
  setDisabled(uid: string, disabled: boolean): Promise<void>;
  deleteAccount(uid: string): Promise<void>;
  /** Sets a password (policy enforced) and ends every session. */
  setPassword(uid: string, password: string): Promise<void>;
  issueSession(uid: string, meta: SessionMeta): Promise<TokenPair>;
  /** Verifies signature, issuer, audience and expiry; throws AppError UNAUTHENTICATED otherwise. */
  verifyIdToken(token: string): Promise<IdTokenClaims>;
  /** Cached; invalidated through the bus when a session ends. */
  isSessionActive(sessionId: string): Promise<boolean>;
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
    opts: { locale: Locale; kind: 'reset' | 'invite'; linkBase?: string },
  ): Promise<void>;
}
