import { spansDomains } from '@assistente/contracts';
import type { MantineStore } from '@mantine/store';
import type { IdentityAuth } from '../../../lib/identity/auth.ts';
import type { IdentityUser } from '../../../lib/identity/user.ts';
import { reportError, reportWarning } from '../../../lib/reporting.ts';
import { refusalReason, signOutReason } from '../accessLost.ts';
import type { AccountApi } from '../api.ts';
import { type AccountSession, emptyAccountSession, toRequestUser } from '../session.ts';

export interface AuthMachineDeps {
  auth: Pick<IdentityAuth, 'onAuthStateChanged' | 'onIdTokenChanged' | 'getIdToken' | 'signOut'>;
  api: AccountApi;
  session: MantineStore<AccountSession>;
  setLoadingAuth: (loading: boolean) => void;
}

export type AuthOutcome = { status: 'authenticated' } | { status: 'signed-out'; error?: unknown };

export interface AuthMachine {
  /** Listens to identity changes; `emitInitial: false` skips the current state (before a sign-in). */
  start(options?: { emitInitial?: boolean }): void;
  stop(): void;
  readonly listening: boolean;
  /** Clears the session, stops listening and signs out of the identity provider. */
  signOut(): Promise<void>;
  /** Handles one identity state (docs/ARCHITECTURE.md#sessions-and-the-identity-client "Auth state change"). */
  handle(user: IdentityUser | null): Promise<AuthOutcome>;
  /** Resolves with the outcome of the last queued change once it has been handled. */
  settled(): Promise<AuthOutcome>;
}

/**
 * The auth state machine (docs/ARCHITECTURE.md#sessions-and-the-identity-client): an identity with an email → fetch the API user by email;
 * found → refresh the domain, refresh the id token, store the session, check the department;
 * missing user, no email or any failure → sign out. Auth loading ends in every case.
 */
export function createAuthMachine(deps: AuthMachineDeps): AuthMachine {
  const { auth, api, session } = deps;
  let unsubscribe: (() => void) | null = null;
  let queue: Promise<AuthOutcome> = Promise.resolve({ status: 'signed-out' });

  // Keep the stored id token current across renewals (proactive refresh, other tabs).
  auth.onIdTokenChanged((user) => {
    const current = session.getState();
    if (user && current.identityUser?.uid === user.uid) {
      session.setState({ ...current, identityUser: user, idToken: user.stsTokenManager.accessToken });
    }
  });

  async function signOut(): Promise<void> {
    stop();
    session.setState({ ...emptyAccountSession });
    await auth.signOut();
  }

  async function refreshDomain(domainId: string, as: ReturnType<typeof toRequestUser>): Promise<void> {
    try {
      const domain = await api.getDomain(domainId, as);
      session.setState({ ...session.getState(), domain });
    } catch (error) {
      reportWarning('Could not refresh the domain', 'auth', error);
    }
  }

  /** Department repair (docs/ARCHITECTURE.md#organisations-domains-departments-premium): SuperAdmin only; failures are only logged. */
  async function checkDepartment(): Promise<void> {
    const user = session.getState().apiUser;
    // Department repair is the one self-move the rules allow, and only to a SuperAdmin.
    if (!user || !spansDomains(user)) return;
    try {
      const departments = await api.listDepartments();
      const first = departments[0];
      if (!first || departments.some((d) => d._id === user.department)) return;
      const updated = await api.updateUser({ ...user, department: first._id });
      session.setState({ ...session.getState(), apiUser: updated });
      const idToken = await auth.getIdToken(true);
      if (idToken) session.setState({ ...session.getState(), idToken });
    } catch (error) {
      reportWarning('Could not check the account department', 'auth', error);
    }
  }

  async function handle(user: IdentityUser | null): Promise<AuthOutcome> {
    try {
      if (!user?.email) {
        await signOut();
        return { status: 'signed-out' };
      }
      // Renewed first when stale (a session restored after a while): a refusal of the renewal says
      // why (a disabled account), where the product call would only go without a token.
      await auth.getIdToken();
      const apiUser = await api.getUserByEmail(user.email);
      await refreshDomain(apiUser.domain, toRequestUser(apiUser));
      const idToken = await auth.getIdToken(true);
      if (!idToken) throw new Error('The identity session ended while signing in');
      session.setState({ ...session.getState(), identityUser: user, apiUser, idToken });
      await checkDepartment();
      return { status: 'authenticated' };
    } catch (error) {
      reportWarning('Signing out: the account session could not be established', 'auth', error);
      const reason = refusalReason(error);
      // The login page says why rather than only showing itself again.
      if (reason) signOutReason.setState({ reason });
      try {
        await signOut();
      } catch (signOutError) {
        reportError(signOutError, 'auth');
      }
      return { status: 'signed-out', error };
    } finally {
      deps.setLoadingAuth(false);
    }
  }

  function start({ emitInitial = true }: { emitInitial?: boolean } = {}): void {
    if (unsubscribe) return;
    unsubscribe = auth.onAuthStateChanged(
      (user) => {
        queue = queue.then(() => handle(user));
      },
      { emitInitial },
    );
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  return {
    start,
    stop,
    get listening() {
      return unsubscribe !== null;
    },
    signOut,
    handle,
    settled: () => queue,
  };
}
