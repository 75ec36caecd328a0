import type { CodeTokenResponse, RefreshTokenResponse } from '@assistente/contracts';

/** What the extension keeps in SecretStorage for the signed-in account. */
export interface StoredSession {
  /** The editor session's id for VS Code's Accounts menu (stable across refreshes). */
  id: string;
  serverUrl: string;
  uid: string;
  email: string;
  name: string;
  idToken: string;
  refreshToken: string;
  /** Epoch ms when the id token expires. */
  expiresAt: number;
}

/** The claims of a JWT's payload; the signature is the server's business, the extension only reads names. */
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1];
  if (!payload) return {};
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function sessionFromExchange(
  serverUrl: string,
  tokens: CodeTokenResponse,
  now: number,
): StoredSession {
  const claims = jwtClaims(tokens.idToken);
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name : tokens.email;
  return {
    id: `${tokens.localId}@${serverUrl}`,
    serverUrl,
    uid: tokens.localId,
    email: tokens.email,
    name,
    idToken: tokens.idToken,
    refreshToken: tokens.refreshToken,
    expiresAt: now + Number(tokens.expiresIn) * 1000,
  };
}

export function sessionAfterRefresh(
  session: StoredSession,
  tokens: RefreshTokenResponse,
  now: number,
): StoredSession {
  return {
    ...session,
    idToken: tokens.id_token,
    refreshToken: tokens.refresh_token,
    expiresAt: now + Number(tokens.expires_in) * 1000,
  };
}

/** A stored value read back: anything not shaped like a session is treated as no session. */
export function parseStoredSession(raw: string | undefined): StoredSession | undefined {
  if (!raw) return undefined;
  try {
    const o = JSON.parse(raw) as Partial<StoredSession>;
    const strings = [o.id, o.serverUrl, o.uid, o.email, o.name, o.idToken, o.refreshToken];
    if (strings.every((s) => typeof s === 'string') && typeof o.expiresAt === 'number')
      return o as StoredSession;
  } catch {
    // fall through
  }
  return undefined;
}
