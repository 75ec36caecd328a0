import type { IdTokenClaims } from '@assistente/contracts';
import { idTokenClaims } from './responses.ts';

/** Access tokens count as expired this long before they really expire (docs/ARCHITECTURE.md#sessions-and-the-identity-client: 30 s). */
export const TOKEN_EXPIRY_MARGIN_MS = 30_000;

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  expirationTime: number;
}

/** The identity-provider user (docs/ARCHITECTURE.md#sessions-and-the-identity-client), shaped like Firebase's `User.toJSON()`. */
export interface IdentityUser {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  photoURL: string | null;
  phoneNumber: string | null;
  isAnonymous: boolean;
  tenantId: string | null;
  providerData: { providerId: string; uid: string; email: string | null; displayName: string | null }[];
  metadata: { creationTime: string | null; lastSignInTime: string | null };
  stsTokenManager: TokenSet;
}

export function isTokenExpired(tokens: Pick<TokenSet, 'expirationTime'>, now: number = Date.now()): boolean {
  return now >= tokens.expirationTime - TOKEN_EXPIRY_MARGIN_MS;
}

/** Token lifetime in seconds (`"3600"`) → absolute expiry in ms. */
export function expirationFrom(expiresIn: string, now: number): number {
  const seconds = Number(expiresIn);
  return now + (Number.isFinite(seconds) && seconds > 0 ? seconds : 3600) * 1000;
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The (unverified) claims of an id token; the services verify it, the client only reads it. */
function decodeIdToken(token: string): IdTokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    return idTokenClaims(JSON.parse(base64UrlDecode(payload)));
  } catch {
    return null;
  }
}

/** Builds the user from a sign-in answer. */
export function userFromSignIn(
  response: {
    localId: string;
    email: string;
    displayName: string;
    idToken: string;
    refreshToken: string;
    expiresIn: string;
  },
  now: number,
): IdentityUser {
  const claims = decodeIdToken(response.idToken);
  const email = response.email || claims?.email || null;
  return {
    uid: response.localId,
    email,
    emailVerified: claims?.email_verified ?? false,
    displayName: response.displayName || claims?.name || null,
    photoURL: null,
    phoneNumber: null,
    isAnonymous: false,
    tenantId: null,
    providerData: [
      {
        providerId: 'password',
        uid: email ?? response.localId,
        email,
        displayName: response.displayName || null,
      },
    ],
    metadata: {
      creationTime: null,
      lastSignInTime: new Date(claims?.auth_time ? claims.auth_time * 1000 : now).toUTCString(),
    },
    stsTokenManager: {
      accessToken: response.idToken,
      refreshToken: response.refreshToken,
      expirationTime: expirationFrom(response.expiresIn, now),
    },
  };
}

/** Narrow check of a persisted user record (storage is not trusted to hold the right shape). */
export function isIdentityUser(value: unknown): value is IdentityUser {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<IdentityUser>;
  const t = v.stsTokenManager;
  return (
    typeof v.uid === 'string' &&
    typeof t === 'object' &&
    t !== null &&
    typeof t.accessToken === 'string' &&
    typeof t.refreshToken === 'string' &&
    typeof t.expirationTime === 'number'
  );
}
