/** The editor opens `/auth/login?provider=authkit&code_challenge=…&state=…` (DESIGN §8). */
export const HANDOFF_PROVIDER = 'authkit';

export interface HandoffQuery {
  state: string;
  codeChallenge: string;
}

/** The handoff parameters, when the query asks for one (code_challenge and provider=authkit). */
export function readHandoffQuery(search: URLSearchParams): HandoffQuery | null {
  const codeChallenge = search.get('code_challenge');
  if (!codeChallenge || search.get('provider') !== HANDOFF_PROVIDER) return null;
  return { codeChallenge, state: search.get('state') ?? '' };
}
