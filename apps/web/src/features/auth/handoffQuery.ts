/** The editor opens `/auth/login?provider=authkit&code_challenge=…&state=…` (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension). */
export const HANDOFF_PROVIDER = 'authkit';

export interface HandoffQuery {
  state: string;
  codeChallenge: string;
  /** A browser-hosted editor's own callback address (`vscode.env.asExternalUri`), when it sent one. */
  callback?: string;
}

/** The handoff parameters, when the query asks for one (code_challenge and provider=authkit). */
export function readHandoffQuery(search: URLSearchParams): HandoffQuery | null {
  const codeChallenge = search.get('code_challenge');
  if (!codeChallenge || search.get('provider') !== HANDOFF_PROVIDER) return null;
  const callback = search.get('callback');
  return { codeChallenge, state: search.get('state') ?? '', ...(callback ? { callback } : {}) };
}

/**
 * Where the code goes: the configured deep link (automatic, as the spec says), or a browser-hosted editor's
 * callback whose exact origin the operator allow-listed (EDITOR_CALLBACK_ORIGINS) and the user confirms.
 * Any other callback is refused: a code sent elsewhere is an account takeover.
 */
export type EditorTarget =
  | { kind: 'deep-link' }
  | { kind: 'callback'; origin: string; url: string }
  | { kind: 'refused'; origin: string };

export function editorTarget(callback: string | undefined, allowedOrigins: readonly string[]): EditorTarget {
  if (callback === undefined) return { kind: 'deep-link' };
  const url = URL.canParse(callback) ? new URL(callback) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    return { kind: 'refused', origin: callback.slice(0, 200) };
  }
  return allowedOrigins.includes(url.origin)
    ? { kind: 'callback', origin: url.origin, url: url.toString() }
    : { kind: 'refused', origin: url.origin };
}
