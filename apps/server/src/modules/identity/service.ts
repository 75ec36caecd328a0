import type { IdTokenClaims, Locale, PasswordPolicy } from '@assistente/contracts';
import * as accounts from './accounts.ts';
import {
  type ClientInfo,
  createIdentityCore,
  type IdentityCore,
  type IdentityDeps,
  type IdentityLimits,
} from './core.ts';
import * as idTokens from './id-tokens.ts';
import * as reset from './password-reset.ts';
import { PASSWORD_POLICY } from './passwords.ts';
import * as sessions from './sessions.ts';
import * as signIn from './sign-in.ts';
import type { TokenSigner, VisitorTokenSubject } from './tokens.ts';
import type {
  IdentityAccount,
  IdentityService,
  IdpHandoffInput,
  SessionInfo,
  SessionMeta,
  VisitorSubject,
} from './types.ts';

export type { ClientInfo, IdentityDeps, IdentityLimits, LookedUp, SignedIn } from './core.ts';
export { DEFAULT_LIMITS } from './core.ts';
export { REUSE_GRACE_MS } from './sessions.ts';
export type { SignedInWithIdp } from './sign-in.ts';

/**
 * The built-in identity provider (docs/ARCHITECTURE.md#identity). This class only names the operations;
 * each lives in the file of its concern: accounts.ts, sessions.ts, sign-in.ts, password-reset.ts,
 * id-tokens.ts, over the shared state of core.ts. Methods of `IdentityService` throw AppError (other
 * modules call them); the HTTP flows below them throw IdentityError (the routes answer it).
 */
export class IdentityServiceImpl implements IdentityService {
  private constructor(private readonly core: IdentityCore) {}

  static async create(deps: IdentityDeps, opts: { limits?: Partial<IdentityLimits> } = {}) {
    return new IdentityServiceImpl(await createIdentityCore(deps, opts));
  }

  get signer(): TokenSigner {
    return this.core.signer;
  }

  // ── IdentityService: used by accounts, embedded, code assist, sso, bootstrap and the CLI ───────────

  createAccount(input: Parameters<IdentityService['createAccount']>[0]): Promise<IdentityAccount> {
    return accounts.createAccount(this.core, input);
  }
  findAccountByEmail(email: string) {
    return accounts.findAccountByEmail(this.core, email);
  }
  findAccount(uid: string) {
    return accounts.findAccount(this.core, uid);
  }
  awaitingPassword(emails: readonly string[]) {
    return accounts.awaitingPassword(this.core, emails);
  }
  setDisabled(uid: string, disabled: boolean) {
    return accounts.setDisabled(this.core, uid, disabled);
  }
  deleteAccount(uid: string) {
    return accounts.deleteAccount(this.core, uid);
  }
  setPassword(uid: string, password: string) {
    return accounts.setPassword(this.core, uid, password);
  }
  issueSession(uid: string, meta: SessionMeta) {
    return sessions.issueSession(this.core, uid, meta);
  }
  signVisitorToken(subject: VisitorTokenSubject, now?: Date) {
    return idTokens.signVisitorToken(this.core, subject, now);
  }
  storeVisitorSession(
    visitor: VisitorSubject,
    session: { sessionId: string; authTime: Date },
    meta: Omit<SessionMeta, 'kind'>,
  ): Promise<boolean> {
    return sessions.storeVisitorSession(this.core, visitor, session, meta);
  }
  sessionStatus(sessionId: string) {
    return sessions.sessionStatus(this.core, sessionId);
  }
  verifyVisitorToken(token: string): Promise<IdTokenClaims> {
    return idTokens.verifyVisitorToken(this.core, token);
  }
  peekVisitorToken(token: string) {
    return idTokens.peekVisitorToken(this.core, token);
  }
  revokeSessionsByUidPrefix(prefix: string, reason: string) {
    return sessions.revokeSessionsByUidPrefix(this.core, prefix, reason);
  }
  verifyIdToken(token: string): Promise<IdTokenClaims> {
    return idTokens.verifyIdToken(this.core, token);
  }
  peekIdToken(token: string) {
    return idTokens.peekIdToken(this.core, token);
  }
  peekSessionActive(sessionId: string) {
    return sessions.peekSessionActive(this.core, sessionId);
  }
  isSessionActive(sessionId: string) {
    return sessions.isSessionActive(this.core, sessionId);
  }
  listSessions(uid: string): Promise<SessionInfo[]> {
    return sessions.listSessions(this.core, uid);
  }
  revokeSession(sessionId: string, reason: string) {
    return sessions.revokeSession(this.core, sessionId, reason);
  }
  revokeAllSessions(uid: string, reason: string, opts: { except?: string } = {}) {
    return sessions.revokeAllSessions(this.core, uid, reason, opts);
  }
  findRefreshTokenSession(refreshToken: string) {
    return sessions.findRefreshTokenSession(this.core, refreshToken);
  }
  sendPasswordResetMail(email: string, opts: { locale: Locale; kind: 'reset' | 'invite'; linkBase: string }) {
    return reset.sendPasswordResetMail(this.core, email, opts);
  }
  createIdpHandoff(input: IdpHandoffInput) {
    return signIn.createIdpHandoff(this.core, input);
  }

  // ── HTTP flows (routes.ts): these throw IdentityError ──────────────────────────────────────

  signInWithPassword(rawEmail: string, password: string, client: ClientInfo) {
    return signIn.signInWithPassword(this.core, rawEmail, password, client);
  }
  signInWithIdp(postBody: string, client: ClientInfo) {
    return signIn.signInWithIdp(this.core, postBody, client);
  }
  refresh(refreshToken: string) {
    return sessions.refresh(this.core, refreshToken);
  }
  revokeRefreshToken(refreshToken: string) {
    return sessions.revokeRefreshToken(this.core, refreshToken);
  }
  requestPasswordReset(rawEmail: string, locale: Locale, client: ClientInfo) {
    return reset.requestPasswordReset(this.core, rawEmail, locale, client);
  }
  checkResetCode(oobCode: string, client: ClientInfo) {
    return reset.checkResetCode(this.core, oobCode, client);
  }
  resetPassword(oobCode: string, newPassword: string, client: ClientInfo) {
    return reset.resetPassword(this.core, oobCode, newPassword, client);
  }
  updateAccount(idToken: string, changes: { password?: string; displayName?: string }) {
    return accounts.updateAccount(this.core, idToken, changes);
  }
  /** accounts:lookup: the caller's own account, from its id token. */
  lookup(idToken: string) {
    return accounts.authenticate(this.core, idToken);
  }
  passwordPolicy(): PasswordPolicy {
    return PASSWORD_POLICY;
  }
  jwks() {
    return this.core.signer.jwks();
  }
  openIdConfiguration() {
    return idTokens.openIdConfiguration(this.core);
  }

  /** Waits for mails and housekeeping started in the background (on shutdown, in tests). */
  async drain(): Promise<void> {
    while (this.core.inflight.size) await Promise.allSettled([...this.core.inflight]);
  }

  purgeLeftovers(now = Date.now()) {
    return sessions.purgeLeftovers(this.core, now);
  }
}
