import { randomBytes } from 'node:crypto';
import type { McpConnect, McpConnectOutcomes } from '@assistente/contracts';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { mcpServers, mcpTokens, users } from '../../db/schema/index.ts';
import { AppError, invalidField } from '../../lib/errors.ts';
import { mcpSdk } from './mcp-sdk.ts';
import type { ToolsState } from './state.ts';
import type { McpServerRow } from './store.ts';

/*
 * OAuth 2.1 to MCP servers (docs/ARCHITECTURE.md#mcp-servers), through the SDK's client: protected
 * resource metadata (RFC 9728, also when only `WWW-Authenticate` names it), authorization server
 * metadata (RFC 8414), dynamic registration when the Admin gave no client, PKCE S256 and the
 * `resource` parameter (RFC 8707). This file keeps the SDK's state in the database, sealed: the
 * registration on the server's row, each person's tokens and pending verifier on theirs.
 */

/** How long a person has to finish signing in after Connect. */
const PENDING_MS = 10 * 60 * 1000;

/** A call to an OAuth server by someone who has not connected (or whose refresh failed). */
export class NotConnectedError extends Error {
  override name = 'NotConnectedError';
  constructor(serverName: string) {
    super(`Connect your account to ${serverName} first: Integration → MCP servers → Connect.`);
  }
}

export const oauthCallbackUrl = (base: string) =>
  new URL('/api/v1/integration/mcp/oauth/callback', base).href;

/**
 * One person's OAuth client for one server. `base`: the app's address as the person reached it,
 * when they are here to sign in (the callback comes back there); absent for tool calls, which
 * only ever refresh.
 */
export class StoredOAuth implements OAuthClientProvider {
  /** Where the person signs in, once `auth` asked for it. */
  authorizationUrl: URL | undefined;

  constructor(
    private readonly s: ToolsState,
    private server: McpServerRow,
    private readonly userId: string,
    private readonly base?: string,
  ) {}

  private get interactive(): boolean {
    return this.base !== undefined;
  }

  private get bound() {
    return `${this.server.id}:${this.userId}`;
  }

  get redirectUrl(): string {
    return oauthCallbackUrl(this.base ?? this.s.ctx.config.publicUrl);
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.server.oauthScopes;
    return {
      client_name: 'Assistente',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.server.oauthClientSecretEnc ? 'client_secret_post' : 'none',
      ...(scopes.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  private async row() {
    const [row] = await this.s.ctx.db
      .select()
      .from(mcpTokens)
      .where(and(eq(mcpTokens.serverId, this.server.id), eq(mcpTokens.userId, this.userId)))
      .limit(1);
    return row;
  }

  private async put(values: Partial<typeof mcpTokens.$inferInsert>): Promise<void> {
    await this.s.ctx.db
      .insert(mcpTokens)
      .values({ serverId: this.server.id, userId: this.userId, ...values })
      .onConflictDoUpdate({
        target: [mcpTokens.serverId, mcpTokens.userId],
        set: { ...values, updatedAt: new Date() },
      });
  }

  async state(): Promise<string> {
    const state = randomBytes(24).toString('base64url');
    await this.put({ pendingState: state, pendingAt: new Date() });
    return state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { box } = this.s;
    if (this.server.oauthClientId) {
      return {
        client_id: this.server.oauthClientId,
        ...(this.server.oauthClientSecretEnc
          ? { client_secret: box.open(this.server.oauthClientSecretEnc, `${this.server.id}:client-secret`) }
          : {}),
      };
    }
    if (!this.server.oauthRegistrationEnc) return undefined;
    const registered = JSON.parse(
      box.open(this.server.oauthRegistrationEnc, `${this.server.id}:registration`),
    ) as OAuthClientInformationMixed & { redirect_uris?: string[] };
    // Registered for another address of the app (localhost, then 127.0.0.1): register again.
    if (this.interactive && registered.redirect_uris && !registered.redirect_uris.includes(this.redirectUrl))
      return undefined;
    return registered;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    const sealed = this.s.box.seal(JSON.stringify(info), `${this.server.id}:registration`);
    await this.s.ctx.db
      .update(mcpServers)
      .set({ oauthRegistrationEnc: sealed })
      .where(eq(mcpServers.id, this.server.id));
    this.server = { ...this.server, oauthRegistrationEnc: sealed };
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const enc = (await this.row())?.tokensEnc;
    return enc ? (JSON.parse(this.s.box.open(enc, this.bound)) as OAuthTokens) : undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.put({ tokensEnc: this.s.box.seal(JSON.stringify(tokens), this.bound) });
  }

  redirectToAuthorization(url: URL): void {
    // A tool call (nobody to send anywhere): the person must connect again.
    if (!this.interactive) throw new NotConnectedError(this.server.displayName);
    this.authorizationUrl = url;
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    await this.put({ pendingVerifierEnc: this.s.box.seal(verifier, this.bound) });
  }

  async codeVerifier(): Promise<string> {
    const enc = (await this.row())?.pendingVerifierEnc;
    if (!enc) throw new Error('No sign-in is under way');
    return this.s.box.open(enc, this.bound);
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'client') {
      await this.s.ctx.db
        .update(mcpServers)
        .set({ oauthRegistrationEnc: null })
        .where(eq(mcpServers.id, this.server.id));
      this.server = { ...this.server, oauthRegistrationEnc: null };
    }
    if (scope === 'all' || scope === 'tokens') await this.put({ tokensEnc: null });
    if (scope === 'all' || scope === 'verifier') await this.put({ pendingVerifierEnc: null });
  }
}

const rpc = (id: number, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

/**
 * Where the server says its protected-resource metadata is (RFC 9728 §5.1: its 401's
 * `WWW-Authenticate`), for servers that publish it nowhere else. A server may answer `initialize`
 * without a token and ask for one only for its tools, so a tool listing is tried too.
 */
async function challengeOf(
  s: ToolsState,
  url: string,
): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const { LATEST_PROTOCOL_VERSION, extractWWWAuthenticateParams } = await mcpSdk();
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
  };
  const post = (body: string, extra: Record<string, string> = {}) =>
    s.guard.fetch(url, {
      method: 'POST',
      headers: { ...headers, ...extra },
      body,
      signal: AbortSignal.timeout(10_000),
    });
  try {
    const init = await post(
      rpc(1, 'initialize', {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'assistente', version: '1.0.0' },
      }),
    );
    await init.body?.cancel();
    if (init.status === 401) return extractWWWAuthenticateParams(init);
    const session = init.headers.get('mcp-session-id');
    const list = await post(rpc(2, 'tools/list'), session ? { 'mcp-session-id': session } : {});
    await list.body?.cancel();
    return list.status === 401 ? extractWWWAuthenticateParams(list) : {};
  } catch {
    // Unreachable now: the SDK's own discovery says why.
    return {};
  }
}

/** Runs the SDK's flow: 'AUTHORIZED' with tokens (refreshed if need be), else where to sign in. */
async function runAuth(s: ToolsState, provider: StoredOAuth, server: McpServerRow, code?: string) {
  try {
    const challenge = await challengeOf(s, server.url);
    const { auth } = await mcpSdk();
    return await auth(provider, {
      serverUrl: server.url,
      fetchFn: s.guard.fetch,
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
      ...(code ? { authorizationCode: code } : {}),
      ...(server.oauthScopes.length
        ? { scope: server.oauthScopes.join(' ') }
        : challenge.scope
          ? { scope: challenge.scope }
          : {}),
    });
  } catch (err) {
    s.ctx.log.info({ err, server: server.id }, 'MCP OAuth failed');
    throw new AppError(
      'PROVIDER_ERROR',
      `Signing in to ${server.displayName} failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** GET …/{id}/connect: the authorization URL to open, or null when the caller is connected already. */
export async function startConnect(
  s: ToolsState,
  server: McpServerRow,
  userId: string,
  base: string,
): Promise<McpConnect> {
  if (server.authKind !== 'oauth') throw invalidField('id', 'This server does not use OAuth');
  const provider = new StoredOAuth(s, server, userId, base);
  const result = await runAuth(s, provider, server);
  if (result === 'AUTHORIZED') return { authorizationUrl: null };
  if (!provider.authorizationUrl) throw new AppError('PROVIDER_ERROR', 'The server gave no place to sign in');
  return { authorizationUrl: provider.authorizationUrl.href };
}

export type ConnectOutcome = (typeof McpConnectOutcomes)[number];

/**
 * The authorization server sent the person back: the code is exchanged (with the verifier kept
 * for this state), the tokens kept. Answers how it went and, on success, the server and person.
 */
export async function finishConnect(
  s: ToolsState,
  q: { code?: string; state?: string; error?: string },
  base: string,
): Promise<{ outcome: ConnectOutcome; server?: McpServerRow; userId?: string }> {
  if (!q.state) return { outcome: 'failed' };
  const [pending] = await s.ctx.db
    .select()
    .from(mcpTokens)
    .where(eq(mcpTokens.pendingState, q.state))
    .limit(1);
  if (!pending) return { outcome: 'expired' };
  const clear = () =>
    s.ctx.db
      .update(mcpTokens)
      .set({ pendingState: null, pendingVerifierEnc: null, pendingAt: null })
      .where(and(eq(mcpTokens.serverId, pending.serverId), eq(mcpTokens.userId, pending.userId)));
  if (!pending.pendingAt || Date.now() - pending.pendingAt.getTime() > PENDING_MS) {
    await clear();
    return { outcome: 'expired' };
  }
  if (q.error || !q.code) {
    await clear();
    return { outcome: q.error === 'access_denied' ? 'denied' : 'failed' };
  }
  const [server] = await s.ctx.db
    .select()
    .from(mcpServers)
    .where(eq(mcpServers.id, pending.serverId))
    .limit(1);
  if (!server) return { outcome: 'expired' };
  const provider = new StoredOAuth(s, server, pending.userId, base);
  try {
    const result = await runAuth(s, provider, server, q.code);
    return result === 'AUTHORIZED'
      ? { outcome: 'connected', server, userId: pending.userId }
      : { outcome: 'failed' };
  } catch {
    return { outcome: 'failed' };
  } finally {
    await clear();
  }
}

/** Forgets a person's connection to a server. */
export async function disconnect(s: ToolsState, serverId: string, userId: string): Promise<void> {
  await s.ctx.db.delete(mcpTokens).where(and(eq(mcpTokens.serverId, serverId), eq(mcpTokens.userId, userId)));
}

/** Which of these servers the person has tokens for. */
export async function connectedServers(
  s: ToolsState,
  userId: string,
  serverIds: string[],
): Promise<Set<string>> {
  if (serverIds.length === 0) return new Set();
  const rows = await s.ctx.db
    .select({ serverId: mcpTokens.serverId })
    .from(mcpTokens)
    .where(
      and(
        eq(mcpTokens.userId, userId),
        inArray(mcpTokens.serverId, serverIds),
        sql`${mcpTokens.tokensEnc} is not null`,
      ),
    );
  return new Set(rows.map((r) => r.serverId));
}

/**
 * Drops the tokens of people who may no longer act (deactivated, or their organisation): what the
 * bus says changed about them is read again, and inactive people's tokens go.
 */
export async function dropInactiveTokens(
  s: ToolsState,
  who: { email?: string; domain?: string },
): Promise<void> {
  const inactive = s.ctx.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        who.email
          ? eq(users.id, who.email.toLowerCase())
          : eq(users.domainId, who.domain?.toLowerCase() ?? ''),
        sql`(not ${users.active} or not exists (select 1 from domains d where d.id = ${users.domainId} and d.active))`,
      ),
    );
  await s.ctx.db.delete(mcpTokens).where(inArray(mcpTokens.userId, inactive));
}
