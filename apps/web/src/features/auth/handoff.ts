import type { Locale, LoginSubmitRequest } from '@assistente/contracts';
import { localizePath } from '../../lib/i18n/locale.ts';
import type { IdentityUser } from '../../lib/identity/user.ts';
import { reportWarning } from '../../lib/reporting.ts';
import type { HandoffQuery } from './handoffQuery.ts';

export {
  type EditorTarget,
  editorTarget,
  HANDOFF_PROVIDER,
  type HandoffQuery,
  readHandoffQuery,
} from './handoffQuery.ts';

/** The login page itself, under the current locale prefix, is the redirect address. */
export function loginRedirectUri(origin: string, prefix: Locale | null): string {
  return `${origin}${localizePath('/auth/login', prefix)}`;
}

/**
 * The auth code from a login-submit answer (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension): the `code` of its `redirect_uri`, or its
 * `auth_code` field.
 */
export function parseAuthCode(data: unknown): string {
  const body = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  let redirectHadNoCode = false;
  if (typeof body.redirect_uri === 'string' && body.redirect_uri !== '') {
    let code: string | null = null;
    try {
      code = new URL(body.redirect_uri, 'http://localhost').searchParams.get('code');
    } catch {
      code = null;
    }
    if (code) return code;
    redirectHadNoCode = true;
  }
  if (typeof body.auth_code === 'string' && body.auth_code !== '') return body.auth_code;
  throw new Error(
    redirectHadNoCode ? 'Auth code missing in redirect URL' : 'Invalid response format: auth_code missing',
  );
}

/** The editor address (the deep link, or a confirmed callback) with the code and state. */
export function editorDeepLinkUrl(deepLink: string, code: string, state: string): string {
  const params = new URLSearchParams({ code, state });
  return `${deepLink}${deepLink.includes('?') ? '&' : '?'}${params.toString()}`;
}

export interface HandoffDeps {
  currentUser: () => IdentityUser | null;
  getIdToken: () => Promise<string | null>;
  submit: (payload: LoginSubmitRequest) => Promise<unknown>;
  /** The configured deep link, or the allow-listed callback the user confirmed. */
  deepLink: () => string;
  /** Leaves the page for the editor (`window.location.href = …`). */
  open: (url: string) => void;
}

export type HandoffResult = 'opened' | 'no-user';

/**
 * The editor sign-in handoff (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension): asks code assist for an auth code for the signed-in
 * user, then opens the editor deep link with the code and state. Errors are thrown to the page.
 */
export async function runEditorHandoff(
  query: HandoffQuery,
  redirectUri: string,
  deps: HandoffDeps,
): Promise<HandoffResult> {
  if (!deps.currentUser()) {
    reportWarning('No Firebase user found', 'auth');
    return 'no-user';
  }
  const idToken = await deps.getIdToken();
  // Read after getIdToken: a renewal there rotates the refresh token.
  const user = deps.currentUser();
  if (!idToken || !user) {
    reportWarning('No Firebase user found', 'auth');
    return 'no-user';
  }
  const response = await deps.submit({
    idToken,
    refreshToken: user.stsTokenManager.refreshToken,
    state: query.state,
    code_challenge: query.codeChallenge,
    redirect_uri: redirectUri,
    email: user.email ?? '',
  });
  const code = parseAuthCode(response);
  deps.open(editorDeepLinkUrl(deps.deepLink(), code, query.state));
  return 'opened';
}
