import { createStore } from '@mantine/store';
import { HttpError } from '../../lib/http/errors.ts';
import { isIdentityError } from '../../lib/identity/errors.ts';

/** Why the app signed someone out on its own, told on the login page. */
export type SignOutReason = 'deactivated' | 'session_ended';

/**
 * The reason of this tab's last automatic sign-out, until the next sign-in. A store, not a value
 * read once: the session may already be gone (and the login page shown) by the time the check
 * that found out why finishes.
 */
export const signOutReason = createStore<{ reason: SignOutReason | null }>({ reason: null });

/**
 * Why establishing a session failed, when the failure says access itself is gone: the identity
 * service disabled the account, or the account manager refuses the user (deactivated user or
 * organisation, no user record). Anything else (offline, a server error) is no verdict.
 */
export function refusalReason(error: unknown): SignOutReason | null {
  if (isIdentityError(error) && error.code === 'auth/user-disabled') return 'deactivated';
  if (error instanceof HttpError && error.status === 403) return 'deactivated';
  return null;
}

export interface AccessDeps {
  /** A forced refresh of the id token: throws when the session or the account is gone. */
  refresh: () => Promise<string | null>;
  signOut: () => Promise<void>;
}

let checking: Promise<void> | null = null;

/**
 * The server refused this tab's token (401, socket 4401) or its account (socket 4403). A fresh
 * token tells which: the session ended elsewhere (password changed, signed out everywhere,
 * revoked), the account was deactivated, or the token was merely stale. Access that is gone signs
 * the tab out at once, with the reason for the login page, instead of leaving it reconnecting.
 */
export function recheckAccess(kind: 'unauthenticated' | 'forbidden', deps: AccessDeps): Promise<void> {
  checking ??= (async () => {
    let reason: SignOutReason | null = null;
    try {
      await deps.refresh();
      // Enabled at the identity service, yet refused: the user or organisation is deactivated.
      if (kind === 'forbidden') reason = 'deactivated';
    } catch (error) {
      if (!isIdentityError(error)) return; // offline or a server error: not a verdict on access
      reason = error.code === 'auth/user-disabled' ? 'deactivated' : 'session_ended';
    }
    if (!reason) return;
    signOutReason.setState({ reason });
    await deps.signOut();
  })().finally(() => {
    checking = null;
  });
  return checking;
}
