// An MCP server protected with OAuth 2.1, and its authorization server, built from the official
// SDK (its auth router: RFC 8414 metadata, dynamic client registration, PKCE, refresh) on two
// loopback ports: what the tools module's OAuth tests connect to in place of a third party's.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import express from 'express';
import { z } from 'zod';

export interface OAuthMcpStandinOptions {
  /**
   * Where the protected-resource metadata (RFC 9728) is found: at its well-known address, or only
   * through the `WWW-Authenticate` header of a 401 (a peer client's bug replayed).
   */
  metadata: 'well-known' | 'header-only';
  /** Answer `initialize` without a token and ask for one only for tools (the other peer bug). */
  openInitialize?: boolean;
}

export interface OAuthMcpStandin {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** The authorization server's issuer. */
  issuer: string;
  ports: number[];
  /** Clients registered dynamically. */
  registered: () => number;
  /** Refresh-token grants answered. */
  refreshes: () => number;
  /** The `resource` (RFC 8707) of every token issued. */
  resources: string[];
  /** Tool calls the MCP server answered, with the token's client. */
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  /** Makes every access token issued so far invalid (as if they expired). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

class Clients implements OAuthRegisteredClientsStore {
  readonly byId = new Map<string, OAuthClientInformationFull>();
  getClient(id: string) {
    return this.byId.get(id);
  }
  registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>) {
    const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
    this.byId.set(full.client_id, full);
    return full;
  }
}

/** Signs everyone in at once (no person to ask in a test) and keeps tokens in memory. */
class Provider implements OAuthServerProvider {
  readonly clientsStore = new Clients();
  readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  readonly access = new Map<string, { clientId: string; resource?: string; expiresAt: number }>();
  readonly refresh = new Map<string, { clientId: string; resource?: string }>();
  refreshCount = 0;
  readonly resources: string[] = [];

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: express.Response) {
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const found = this.codes.get(code);
    if (!found) throw new Error('unknown code');
    return found.params.codeChallenge;
  }

  private issue(clientId: string, resource: string | undefined): OAuthTokens {
    const token = randomUUID();
    const refresh = randomUUID();
    this.access.set(token, {
      clientId,
      ...(resource ? { resource } : {}),
      expiresAt: Date.now() + 3_600_000,
    });
    this.refresh.set(refresh, { clientId, ...(resource ? { resource } : {}) });
    this.resources.push(resource ?? '');
    return { access_token: token, token_type: 'bearer', expires_in: 3600, refresh_token: refresh };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string) {
    const found = this.codes.get(code);
    if (!found || found.clientId !== client.client_id) throw new Error('invalid code');
    this.codes.delete(code);
    return this.issue(client.client_id, found.params.resource?.href);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string) {
    const found = this.refresh.get(refreshToken);
    if (!found || found.clientId !== client.client_id) throw new Error('invalid refresh token');
    this.refresh.delete(refreshToken);
    this.refreshCount++;
    return this.issue(client.client_id, found.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.access.get(token);
    if (!found || found.expiresAt < Date.now()) throw new Error('invalid token');
    return { token, clientId: found.clientId, scopes: [], expiresAt: Math.floor(found.expiresAt / 1000) };
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

export async function startOAuthMcpStandin(opts: OAuthMcpStandinOptions): Promise<OAuthMcpStandin> {
  const provider = new Provider();
  const calls: OAuthMcpStandin['calls'] = [];

  // The authorization server: the SDK's router on an app of its own.
  const authApp = express();
  const authHttp = createServer(authApp);
  const authPort = await listen(authHttp);
  const issuer = `http://127.0.0.1:${authPort}`;
  authApp.use(mcpAuthRouter({ provider, issuerUrl: new URL(issuer) }));

  // The MCP server, which only trusts that authorization server's tokens.
  const mcpHttp = createServer();
  const mcpPort = await listen(mcpHttp);
  const base = `http://127.0.0.1:${mcpPort}`;
  const url = `${base}/mcp`;
  const metadata = { resource: url, authorization_servers: [issuer], bearer_methods_supported: ['header'] };
  const metadataUrl =
    opts.metadata === 'well-known' ? `${base}/.well-known/oauth-protected-resource/mcp` : `${base}/meta/prm`;

  mcpHttp.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = new URL(req.url ?? '/', base).pathname;
      if (req.method === 'GET' && path === new URL(metadataUrl).pathname) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata));
        return;
      }
      if (path !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const body = await readJson(req);
      const method = (body as { method?: string } | undefined)?.method ?? '';
      const open = opts.openInitialize && (method === 'initialize' || method.startsWith('notifications/'));
      if (!open) {
        const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
        const valid = bearer ? await provider.verifyAccessToken(bearer).catch(() => undefined) : undefined;
        if (!valid) {
          res
            .writeHead(401, {
              'content-type': 'application/json',
              'www-authenticate': `Bearer error="invalid_token", resource_metadata="${metadataUrl}"`,
            })
            .end('{"error":"invalid_token"}');
          return;
        }
      }
      const server = new McpServer({ name: 'oauth-standin', version: '1.0.0' });
      server.registerTool(
        'echo',
        { description: 'Says back what it is given', inputSchema: { text: z.string() } },
        async ({ text }) => {
          calls.push({ name: 'echo', args: { text } });
          return { content: [{ type: 'text', text }] };
        },
      );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  return {
    url,
    issuer,
    ports: [authPort, mcpPort],
    registered: () => provider.clientsStore.byId.size,
    refreshes: () => provider.refreshCount,
    resources: provider.resources,
    calls,
    expireAccessTokens() {
      for (const t of provider.access.values()) t.expiresAt = 0;
    },
    async close() {
      for (const s of [authHttp, mcpHttp]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
