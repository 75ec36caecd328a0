import * as vscode from 'vscode';
import { type CallbackResult, PendingSignIns, SIGN_IN_TIMEOUT_MS } from './pending.ts';
import { isFresh, refreshDelay, retryDelay } from './refresh.ts';
import {
  exchangeCode,
  isFinalRefreshError,
  loadRuntimeConfig,
  loginPageUri,
  refreshTokens,
  revokeSession,
} from './server.ts';
import {
  parseStoredSession,
  type StoredSession,
  sessionAfterRefresh,
  sessionFromExchange,
} from './session.ts';

export const PROVIDER_ID = 'assistente';
export const EXTENSION_ID = 'assistente.assistente-vscode';
const SECRET_KEY = 'assistente.session';
export const CALLBACK_PATH = '/auth-callback';

function signInFailure(reason: Extract<CallbackResult, { ok: false }>['reason']): string {
  switch (reason) {
    case 'expired':
      return vscode.l10n.t('Sign-in took too long. Try again.');
    case 'denied':
      return vscode.l10n.t('Sign-in was refused in the browser.');
    case 'no-sign-in':
      return vscode.l10n.t('Sign-in was cancelled.');
    case 'state-mismatch':
    case 'missing-code':
      return vscode.l10n.t('The browser sent back an answer this sign-in did not ask for. Try again.');
  }
}

export function serverUrl(): string {
  const url =
    vscode.workspace.getConfiguration('assistente').get<string>('serverUrl') || 'http://localhost:3000';
  return url.replace(/\/+$/, '');
}

/**
 * Sign-in through the web app (docs/ARCHITECTURE.md#code-assist-and-the-editor-extension): PKCE S256 and a `state`, the code comes back to the URI handler,
 * is exchanged for an editor session whose tokens live in SecretStorage and are renewed before they expire.
 */
export class AssistenteAuthProvider
  implements vscode.AuthenticationProvider, vscode.UriHandler, vscode.Disposable
{
  private readonly changes =
    new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changes.event;
  private readonly pending = new PendingSignIns();
  private callback: ((query: URLSearchParams) => void) | null = null;
  private session: StoredSession | undefined;
  private loaded: Promise<void>;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private refreshing: Promise<StoredSession | undefined> | null = null;
  private failures = 0;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.loaded = this.load();
  }

  private async load(): Promise<void> {
    this.session = parseStoredSession(await this.secrets.get(SECRET_KEY));
    if (this.session) this.schedule();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.changes.dispose();
  }

  private toVsSession(s: StoredSession): vscode.AuthenticationSession {
    return { id: s.id, accessToken: s.idToken, account: { id: s.uid, label: s.name }, scopes: [] };
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    await this.loaded;
    const s =
      this.session && !isFresh(this.session.expiresAt, Date.now()) ? await this.refresh() : this.session;
    return s ? [this.toVsSession(s)] : [];
  }

  /** The id token for a request, renewed first when it is about to expire; undefined when signed out. */
  async accessToken(): Promise<string | undefined> {
    const [s] = await this.getSessions();
    return s?.accessToken;
  }

  /** The server refused the token (websocket 4401): find out at once whether the session still lives. */
  async verify(): Promise<boolean> {
    await this.loaded;
    return this.session ? (await this.refresh()) !== undefined : false;
  }

  account(): StoredSession | undefined {
    return this.session;
  }

  handleUri(uri: vscode.Uri): void {
    if (uri.path !== CALLBACK_PATH) return;
    this.callback?.(new URLSearchParams(uri.query));
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const server = serverUrl();
    const config = await loadRuntimeConfig(server);
    const sign = this.pending.start();
    const callback = await vscode.env.asExternalUri(
      vscode.Uri.parse(`${vscode.env.uriScheme}://${EXTENSION_ID}${CALLBACK_PATH}`),
    );
    const query = new URLSearchParams({
      provider: 'authkit',
      code_challenge: sign.challenge,
      state: sign.state,
    });
    // In the browser (code-server, Codespaces) the callback is an http(s) address the web app may send the code
    // to after the user confirms; desktop VS Code gets the configured deep link instead.
    if (callback.scheme === 'http' || callback.scheme === 'https')
      query.set('callback', callback.toString(true));
    const url = `${loginPageUri(server)}?${query.toString()}`;

    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Signing in to Assistente in the browser…'),
        cancellable: true,
      },
      (_progress, cancel) =>
        new Promise<CallbackResult>((resolve) => {
          const done = (r: CallbackResult) => {
            clearTimeout(timeout);
            this.callback = null;
            resolve(r);
          };
          const timeout = setTimeout(() => done({ ok: false, reason: 'expired' }), SIGN_IN_TIMEOUT_MS);
          cancel.onCancellationRequested(() => {
            this.pending.cancel();
            done({ ok: false, reason: 'no-sign-in' });
          });
          this.callback = (q) => {
            const r = this.pending.complete(q);
            // Someone else's callback (another state) leaves this sign-in waiting for its own.
            if (r.ok || r.reason !== 'state-mismatch') done(r);
          };
          // A string, not a Uri: a Uri would be re-encoded and the callback address in the query mangled.
          void vscode.env.openExternal(url as unknown as vscode.Uri);
        }),
    );
    if (!result.ok) throw new Error(signInFailure(result.reason));

    const tokens = await exchangeCode(config, {
      code: result.code,
      code_verifier: result.verifier,
      redirect_uri: loginPageUri(server),
    });
    const previous = this.session;
    this.session = sessionFromExchange(server, tokens, Date.now());
    await this.secrets.store(SECRET_KEY, JSON.stringify(this.session));
    this.failures = 0;
    this.schedule();
    const added = this.toVsSession(this.session);
    this.changes.fire({ added: [added], removed: previous ? [this.toVsSession(previous)] : [], changed: [] });
    if (previous) void this.revokeQuietly(previous);
    return added;
  }

  async removeSession(): Promise<void> {
    await this.loaded;
    const s = this.session;
    if (!s) return;
    await this.forget();
    await this.revokeQuietly(s);
  }

  private async revokeQuietly(s: StoredSession): Promise<void> {
    try {
      await revokeSession(await loadRuntimeConfig(s.serverUrl), s.refreshToken);
    } catch (err) {
      // Signed out here whatever happens; the session also ends on its own when its refresh token expires.
      console.warn('Assistente: could not revoke the session', err);
    }
  }

  private async forget(): Promise<void> {
    const s = this.session;
    clearTimeout(this.timer);
    this.session = undefined;
    await this.secrets.delete(SECRET_KEY);
    if (s) this.changes.fire({ added: [], removed: [this.toVsSession(s)], changed: [] });
  }

  private schedule(delay?: number): void {
    clearTimeout(this.timer);
    if (!this.session) return;
    this.timer = setTimeout(
      () => void this.refresh(),
      delay ?? refreshDelay(this.session.expiresAt, Date.now()),
    );
  }

  /** Renews the tokens once even when several callers ask at the same time (the refresh token rotates). */
  private refresh(): Promise<StoredSession | undefined> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<StoredSession | undefined> {
    const s = this.session;
    if (!s) return undefined;
    try {
      const tokens = await refreshTokens(await loadRuntimeConfig(s.serverUrl), s.refreshToken);
      this.session = sessionAfterRefresh(s, tokens, Date.now());
      await this.secrets.store(SECRET_KEY, JSON.stringify(this.session));
      this.failures = 0;
      this.schedule();
      this.changes.fire({ added: [], removed: [], changed: [this.toVsSession(this.session)] });
      return this.session;
    } catch (err) {
      if (isFinalRefreshError(err)) {
        await this.forget();
        void vscode.window.showWarningMessage(vscode.l10n.t('Your Assistente session ended. Sign in again.'));
        return undefined;
      }
      // The server is unreachable: keep the session and try again later.
      this.schedule(retryDelay(this.failures++));
      return isFresh(s.expiresAt, Date.now()) ? s : undefined;
    }
  }
}
