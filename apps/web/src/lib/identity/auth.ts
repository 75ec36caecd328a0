import { reportError, reportWarning } from '../reporting.ts';
import type { IdentityClient } from './client.ts';
import { type AuthErrorCode, IdentityError, isIdentityError, SESSION_ENDING_CODES } from './errors.ts';
import type { Persistence } from './persistence.ts';
import { ProactiveRefresh } from './refreshScheduler.ts';
import { expirationFrom, type IdentityUser, isIdentityUser, isTokenExpired, userFromSignIn } from './user.ts';

export type AuthListener = (user: IdentityUser | null) => void;

export interface IdentityAuthOptions {
  client: IdentityClient;
  /** Namespaces the stored user, as the Firebase SDK does. */
  apiKey: string;
  persistence: Persistence | Promise<Persistence>;
  /** `navigator.locks`; without it refreshes are only serialised within this tab. */
  locks?: LockManager | null;
  /** Where the cross-tab signal is written (localStorage). */
  signalStorage?: Storage | null;
  /** Where `storage` events arrive (window). */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
  now?: () => number;
}

const RETRYABLE: readonly AuthErrorCode[] = ['auth/network-request-failed', 'auth/internal-error'];

/**
 * The signed-in identity (a small stand-in for Firebase Auth): persistence, token renewal and
 * tab coordination. Refresh tokens rotate on every use and a replayed one ends the session, so
 * renewals run under a Web Lock and always start from the newest stored token; other tabs learn
 * about a new token through a `storage` event.
 */
export class IdentityAuth {
  currentUser: IdentityUser | null = null;
  readonly ready: Promise<void>;
  private persistence: Persistence | null = null;
  private readonly stateListeners = new Set<AuthListener>();
  private readonly tokenListeners = new Set<AuthListener>();
  private refreshing: Promise<string> | null = null;
  /** Counts this tab's sign-outs: a renewal that began before one must not sign the user back in. */
  private signOuts = 0;
  private readonly proactive: ProactiveRefresh;
  private readonly now: () => number;

  constructor(private readonly options: IdentityAuthOptions) {
    this.now = options.now ?? Date.now;
    this.proactive = new ProactiveRefresh(
      () => this.getIdToken(true),
      () => this.currentUser?.stsTokenManager.expirationTime ?? null,
      (error) => isIdentityError(error) && RETRYABLE.includes(error.code),
    );
    this.ready = this.initialize();
  }

  get storageKey(): string {
    return `assistente:authUser:${this.options.apiKey}`;
  }

  get signalKey(): string {
    return `assistente:authEvent:${this.options.apiKey}`;
  }

  get persistenceType(): Persistence['type'] | null {
    return this.persistence?.type ?? null;
  }

  private async initialize(): Promise<void> {
    this.persistence = await this.options.persistence;
    const stored = await this.persistence.get(this.storageKey).catch(() => null);
    this.currentUser = isIdentityUser(stored) ? stored : null;
    if (this.currentUser) this.proactive.start();
    this.options.events?.addEventListener('storage', this.onStorage);
  }

  /** Stops timers and listeners (tests, hot reload). */
  dispose(): void {
    this.proactive.stop();
    this.options.events?.removeEventListener('storage', this.onStorage);
    this.stateListeners.clear();
    this.tokenListeners.clear();
  }

  /**
   * Calls `listener` on sign-in, sign-out and user switches; first with the current user once
   * initialised unless `emitInitial` is false.
   */
  onAuthStateChanged(listener: AuthListener, { emitInitial = true } = {}): () => void {
    this.stateListeners.add(listener);
    if (emitInitial) {
      void this.ready.then(() => {
        if (this.stateListeners.has(listener)) listener(this.currentUser);
      });
    }
    return () => this.stateListeners.delete(listener);
  }

  /** Calls `listener` whenever the id token changes (renewals included). */
  onIdTokenChanged(listener: AuthListener): () => void {
    this.tokenListeners.add(listener);
    return () => this.tokenListeners.delete(listener);
  }

  async signInWithEmailAndPassword(email: string, password: string): Promise<IdentityUser> {
    await this.ready;
    const response = await this.options.client.signInWithPassword(email.trim(), password);
    const user = userFromSignIn(response, this.now());
    await this.store(user);
    this.adopt(user, { forceStateEvent: true });
    return user;
  }

  /** Finishes a single sign-on: the callback's one-time code becomes this tab's (and every tab's) session. */
  async signInWithIdp(code: string, providerId: string, requestUri: string): Promise<IdentityUser> {
    await this.ready;
    const response = await this.options.client.signInWithIdp(code, providerId, requestUri);
    const user = userFromSignIn(response, this.now());
    await this.store(user);
    this.adopt(user, { forceStateEvent: true });
    return user;
  }

  /**
   * Forgets the user here and in other tabs, and revokes its refresh token (its session). The
   * storage is cleared under the renewal lock: a renewal in flight (this tab's or another's) could
   * otherwise write the user back after the removal, and the next load would be signed in.
   */
  async signOut(): Promise<void> {
    await this.ready;
    const user = this.currentUser;
    // Nobody signed in here: leave storage alone, another tab may be signing in right now.
    if (!user) return;
    this.signOuts += 1;
    this.adopt(null);
    const refreshTokens = new Set([user.stsTokenManager.refreshToken]);
    await this.withLock(async () => {
      const stored = await this.requirePersistence()
        .get(this.storageKey)
        .catch(() => null);
      // A renewal finished meanwhile: its rotated token is the session's now.
      if (isIdentityUser(stored) && stored.uid === user.uid)
        refreshTokens.add(stored.stsTokenManager.refreshToken);
      await this.store(null);
    });
    for (const token of refreshTokens) {
      this.options.client.revokeToken(token).catch((error: unknown) => {
        reportWarning('Could not revoke the refresh token', 'identity', error);
      });
    }
  }

  /**
   * Changes the password (docs/ARCHITECTURE.md#identity): signs in again with the current password (which proves it and
   * makes the sign-in recent), then `accounts:update`. The server ends every other session, this
   * tab's previous one included, so the new session's tokens replace the stored ones. Holds the
   * refresh lock throughout: a renewal of the old token meanwhile would find it revoked and sign out.
   */
  async changePassword(currentPassword: string, newPassword: string): Promise<void> {
    await this.ready;
    const user = this.currentUser;
    if (!user?.email) throw new IdentityError('auth/user-token-expired');
    const email = user.email;
    await this.withLock(async () => {
      const fresh = await this.options.client.signInWithPassword(email, currentPassword);
      if (fresh.localId !== user.uid) {
        this.options.client.revokeToken(fresh.refreshToken).catch(() => undefined);
        throw new IdentityError('auth/user-mismatch');
      }
      let updated: Awaited<ReturnType<IdentityClient['updatePassword']>>;
      try {
        updated = await this.options.client.updatePassword(fresh.idToken, newPassword);
      } catch (error) {
        // The re-authentication opened a session of its own: do not leave it behind.
        this.options.client.revokeToken(fresh.refreshToken).catch(() => undefined);
        throw error;
      }
      const current = this.currentUser ?? user;
      const next: IdentityUser = {
        ...current,
        stsTokenManager: {
          accessToken: updated.idToken ?? fresh.idToken,
          refreshToken: updated.refreshToken ?? fresh.refreshToken,
          expirationTime: expirationFrom(updated.expiresIn ?? fresh.expiresIn, this.now()),
        },
      };
      await this.store(next);
      this.adopt(next);
    });
  }

  /**
   * The id token; renewed first when it expires within 30 s or when `forceRefresh` is set.
   * Null without a signed-in user.
   */
  async getIdToken(forceRefresh = false): Promise<string | null> {
    await this.ready;
    const user = this.currentUser;
    if (!user) return null;
    if (!forceRefresh && !isTokenExpired(user.stsTokenManager, this.now())) {
      return user.stsTokenManager.accessToken;
    }
    const stale = user.stsTokenManager.refreshToken;
    const signOuts = this.signOuts;
    this.refreshing ??= this.withLock(() => this.refreshLocked(stale, signOuts)).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async withLock<T>(task: () => Promise<T>): Promise<T> {
    const locks = this.options.locks;
    if (!locks) return task();
    return await locks.request(
      `assistente:token-refresh:${this.options.apiKey}`,
      { mode: 'exclusive' },
      task,
    );
  }

  /** Runs holding the cross-tab lock: the stored user has the newest refresh token. */
  private async refreshLocked(staleRefreshToken: string, signOuts: number): Promise<string> {
    if (signOuts !== this.signOuts) throw new IdentityError('auth/user-token-expired');
    const stored = await this.requirePersistence().get(this.storageKey);
    const storedUser = isIdentityUser(stored) ? stored : null;
    if (!storedUser) {
      // Signed out in another tab meanwhile.
      this.adopt(null);
      throw new IdentityError('auth/user-token-expired');
    }
    const storedTokens = storedUser.stsTokenManager;
    if (storedTokens.refreshToken !== staleRefreshToken && !isTokenExpired(storedTokens, this.now())) {
      // Another tab renewed it while we waited: use its result instead of replaying an old token.
      this.adopt(storedUser);
      return storedTokens.accessToken;
    }
    let response: Awaited<ReturnType<IdentityClient['refreshIdToken']>>;
    try {
      response = await this.options.client.refreshIdToken(storedTokens.refreshToken);
    } catch (error) {
      if (isIdentityError(error) && SESSION_ENDING_CODES.includes(error.code)) {
        await this.store(null);
        this.adopt(null);
      }
      throw error;
    }
    // Signed out (here or in another tab) while the renewal was in flight: storing its result
    // would sign the user back in on the next load.
    const still = await this.requirePersistence().get(this.storageKey);
    if (signOuts !== this.signOuts || !isIdentityUser(still) || still.uid !== storedUser.uid) {
      this.options.client.revokeToken(response.refresh_token).catch(() => undefined);
      throw new IdentityError('auth/user-token-expired');
    }
    const updated: IdentityUser = {
      ...storedUser,
      stsTokenManager: {
        accessToken: response.id_token,
        refreshToken: response.refresh_token,
        expirationTime: expirationFrom(response.expires_in, this.now()),
      },
    };
    await this.store(updated);
    this.adopt(updated);
    return updated.stsTokenManager.accessToken;
  }

  private requirePersistence(): Persistence {
    if (!this.persistence) throw new Error('Identity persistence is not ready');
    return this.persistence;
  }

  /** Saves (or clears) the user and tells other tabs. */
  private async store(user: IdentityUser | null): Promise<void> {
    const persistence = this.requirePersistence();
    try {
      if (user) await persistence.set(this.storageKey, user);
      else await persistence.remove(this.storageKey);
    } catch (error) {
      reportWarning('Could not persist the signed-in user', 'identity', error);
    }
    try {
      this.options.signalStorage?.setItem(
        this.signalKey,
        `${this.now()}:${Math.random().toString(36).slice(2)}`,
      );
    } catch {
      // No cross-tab signal without storage; each tab still refreshes safely under the lock.
    }
  }

  /** Makes `user` current and tells listeners what changed. */
  private adopt(user: IdentityUser | null, { forceStateEvent = false } = {}): void {
    const previous = this.currentUser;
    this.currentUser = user;
    if (!user) {
      this.proactive.stop();
      if (previous) {
        this.emit(this.stateListeners, null);
        this.emit(this.tokenListeners, null);
      }
      return;
    }
    if (this.proactive.isRunning) this.proactive.reschedule();
    else this.proactive.start();
    if (forceStateEvent || !previous || previous.uid !== user.uid) this.emit(this.stateListeners, user);
    if (!previous || previous.stsTokenManager.accessToken !== user.stsTokenManager.accessToken) {
      this.emit(this.tokenListeners, user);
    }
  }

  private emit(listeners: Set<AuthListener>, user: IdentityUser | null): void {
    for (const listener of [...listeners]) {
      try {
        listener(user);
      } catch (error) {
        reportError(error, 'identity');
      }
    }
  }

  private readonly onStorage = (event: StorageEvent): void => {
    if (event.key !== this.signalKey && event.key !== this.storageKey) return;
    void this.syncFromStorage();
  };

  /** Another tab signed in, out, or renewed the token. */
  async syncFromStorage(): Promise<void> {
    const stored = await this.requirePersistence()
      .get(this.storageKey)
      .catch(() => null);
    this.adopt(isIdentityUser(stored) ? stored : null);
  }
}
