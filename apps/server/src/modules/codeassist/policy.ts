import type { UserCaller } from '../../lib/caller.ts';
import { forbidden, unauthenticated } from '../../lib/errors.ts';

/**
 * Who may hand an editor a sign-in (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension): only
 * a person, for the account signed in on the login page, whose email they confirm.
 */
export function authorizeHandoff(caller: UserCaller, claimedEmail: string): void {
  if (claimedEmail.trim().toLowerCase() !== caller.email) {
    throw forbidden('The email does not match the signed-in account');
  }
}

/** The refresh token handed over must be of a live session of that same account. */
export function authorizeSession(
  caller: UserCaller,
  owner: { uid: string } | undefined,
  sessionActive: boolean,
): void {
  if (!owner || owner.uid !== caller.uid || !sessionActive) {
    throw unauthenticated('The refresh token does not belong to an active session of this account');
  }
}
