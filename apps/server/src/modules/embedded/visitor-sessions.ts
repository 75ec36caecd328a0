import { hashSecret, newSecret } from '../identity/crypto.ts';
import type { IdentityService } from '../identity/types.ts';
import { MAX_DISPLAY_NAME_LENGTH } from '../identity/validation.ts';

/** Whom a minted visitor session is for: their token holds no email. */
export interface MintedVisitor {
  uid: string;
  displayName: string;
}

export interface MintedVisitorSession {
  idToken: string;
  refreshToken: string;
  /** Seconds, as a string (Identity Toolkit's format). */
  expiresIn: string;
  sessionId: string;
  uid: string;
  authTime: Date;
}

/**
 * A new session of an embedded chat's visitor (docs/ARCHITECTURE.md#embed-contract), whose id tokens carry
 * `aud: embedded` and `sub` = `uid`. Minted without a database write: a site's page may open sessions
 * that are never used, and the call is public. The session, its passwordless account and its refresh
 * token are stored by `identity.storeVisitorSession` on first use; until then `sessionStatus` says
 * `absent` and the refresh token is unknown (the embedded page then asks for a new session: nothing
 * was stored, so nothing is lost).
 */
export function mintVisitorSession(
  identity: Pick<IdentityService, 'signVisitorToken'>,
  visitor: MintedVisitor,
  now = new Date(),
): MintedVisitorSession {
  const displayName = visitor.displayName.trim().slice(0, MAX_DISPLAY_NAME_LENGTH);
  // The session's id is the hash of its first refresh token, as the refresh-token table keeps it:
  // the session needs no row until it is used, and its id token carries only the hash. (Deriving
  // the token from the id instead took an HMAC, a third of a public session call's crypto.)
  const refreshToken = newSecret();
  const sessionId = hashSecret(refreshToken);
  const { idToken, expiresIn } = identity.signVisitorToken(
    { uid: visitor.uid, displayName, sessionId, authTime: now },
    now,
  );
  return { idToken, refreshToken, expiresIn, sessionId, uid: visitor.uid, authTime: now };
}
