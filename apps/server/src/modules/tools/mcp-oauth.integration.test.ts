import { type McpServer, McpServerSchema, type MessagePart, ToolListSchema } from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpTokens, messages } from '../../db/schema/index.ts';
import { useAgentsSuite } from '../../test/agents-suite.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';
import { type OAuthMcpStandin, startOAuthMcpStandin } from '../../test/mcp-oauth-standin.ts';
import { type McpStandin, startMcpStandin } from '../../test/mcp-standin.ts';

const BASE = '/api/v1/integration/mcp';
let wellKnown: OAuthMcpStandin;
let headerOnly: OAuthMcpStandin;
let openInitialize: OAuthMcpStandin;
let plain: McpStandin;

const { the, connect, rid, exchange } = useAgentsSuite({
  allow: async () => {
    wellKnown = await startOAuthMcpStandin({ metadata: 'well-known' });
    headerOnly = await startOAuthMcpStandin({ metadata: 'header-only' });
    openInitialize = await startOAuthMcpStandin({ metadata: 'header-only', openInitialize: true });
    plain = await startMcpStandin();
    return [...wellKnown.ports, ...headerOnly.ports, ...openInitialize.ports, plain.port].map(
      (p) => `127.0.0.1:${p}`,
    );
  },
});
afterAll(async () => {
  await Promise.allSettled([wellKnown, headerOnly, openInitialize, plain].map((s) => s?.close()));
});

async function api(who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return the.t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
}

async function addOAuthServer(standin: OAuthMcpStandin, name: string): Promise<McpServer> {
  const res = await api(the.admin, 'POST', BASE, {
    displayName: name,
    url: standin.url,
    auth: { kind: 'oauth' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return McpServerSchema.parse(res.json());
}

/** Connect as `who`: the authorization server signs them in at once and sends them back. */
async function connectAccount(
  who: TestUser,
  server: McpServer,
): Promise<{ authorizationUrl: URL; status: string }> {
  const res = await api(who, 'GET', `${BASE}/${server.id}/connect`);
  expect(res.statusCode, res.body).toBe(200);
  const authorizationUrl = new URL((res.json() as { authorizationUrl: string }).authorizationUrl);
  const sent = await fetch(authorizationUrl, { redirect: 'manual' });
  const back = new URL(sent.headers.get('location') ?? '');
  expect(back.pathname).toBe(`${BASE}/oauth/callback`);
  const callback = await the.t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(callback.statusCode).toBe(302);
  const landed = new URL(callback.headers.location as string);
  expect(landed.pathname).toBe('/integration/mcp-connected');
  return { authorizationUrl, status: landed.searchParams.get('status') ?? '' };
}

async function santitoWith(server: McpServer): Promise<string> {
  const res = await api(the.admin, 'POST', '/api/v1/agent', {
    name: `OAuth ${rid()}`,
    tools: [`mcp:${server.id}:*`],
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

const toolPart = (parts: MessagePart[] | undefined) =>
  parts?.find((p): p is Extract<MessagePart, { type: 'tool' }> => p.type === 'tool');

let server: McpServer;

beforeAll(async () => {
  const policy = await api(the.admin, 'PUT', '/api/v1/settings/tools', {
    rules: [{ match: 'mcp:*', decision: 'allow' }],
    userServers: false,
  });
  expect(policy.statusCode).toBe(200);
  server = await addOAuthServer(wellKnown, 'Protegido');
});

describe('MCP servers with OAuth 2.1', () => {
  it('a server nobody connected to yet says so; connecting registers a client, with PKCE and the resource', async () => {
    expect(server.auth).toEqual({ kind: 'oauth', clientId: null, hasClientSecret: false, scopes: [] });
    expect(server.lastError?.reason).toBe('not_connected');
    expect(server.connected).toBe(false);

    const { authorizationUrl, status } = await connectAccount(the.admin, server);
    expect(status).toBe('connected');
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(wellKnown.url);
    expect(wellKnown.registered()).toBe(1);
    expect(wellKnown.resources.at(-1)).toBe(wellKnown.url);

    const after = McpServerSchema.parse((await api(the.admin, 'GET', `${BASE}/${server.id}`)).json());
    expect(after).toMatchObject({ connected: true, lastError: null });
    expect(after.tools.map((t) => t.name)).toEqual(['echo']);
    // Tokens are kept sealed.
    const [row] = await the.t.ctx.db
      .select()
      .from(mcpTokens)
      .where(and(eq(mcpTokens.serverId, server.id), eq(mcpTokens.userId, the.admin.user.id)));
    expect(row?.tokensEnc).toBeTruthy();
    expect(row?.tokensEnc).not.toContain('access_token');
    expect(row?.pendingState).toBeNull();
  });

  it('calls tools with each person’s own token, refreshes once when it expired, and asks others to connect', async () => {
    const agentId = await santitoWith(server);
    await connectAccount(the.alice, server);
    const s = await connect(the.alice);
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"with a token"}' }] },
      { text: 'ok' },
    );
    const first = await exchange(s, { agentId, content: 'Call it' });
    expect(first.done.status).toBe('complete');
    expect(wellKnown.calls).toContainEqual({ name: 'echo', args: { text: 'with a token' } });

    wellKnown.expireAccessTokens();
    const refreshesBefore = wellKnown.refreshes();
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"after expiry"}' }] },
      { text: 'ok' },
    );
    const second = await exchange(s, { chatId: first.chatId, content: 'Again' });
    expect(second.done.status).toBe('complete');
    expect(wellKnown.calls).toContainEqual({ name: 'echo', args: { text: 'after expiry' } });
    expect(wellKnown.refreshes() - refreshesBefore).toBe(1);

    // Bob never connected: the call fails, saying how to fix it, and the model answers anyway.
    const b = await connect(the.bob);
    the.fx.enqueue(
      { text: '', toolCalls: [{ name: 'echo', arguments: '{"text":"no token"}' }] },
      { text: 'sorry' },
    );
    const bobs = await exchange(b, { agentId, content: 'Call it' });
    const call = await b.next('tool.result', (f) => f.messageId === bobs.assistant.messageId);
    expect(call.status).toBe('error');
    expect(call.output).toMatch(/Connect your account to Protegido/);
    expect(wellKnown.calls).not.toContainEqual({ name: 'echo', args: { text: 'no token' } });
    const [stored] = await the.t.ctx.db
      .select()
      .from(messages)
      .where(eq(messages.id, bobs.assistant.messageId));
    expect(toolPart(stored?.parts ?? undefined)?.status).toBe('error');
  });

  it('finds the metadata only in WWW-Authenticate, and starts OAuth for a server that answers initialize openly', async () => {
    for (const [standin, name] of [
      [headerOnly, 'Só cabeçalho'],
      [openInitialize, 'Inicializa aberto'],
    ] as const) {
      const added = await addOAuthServer(standin, name);
      const { status } = await connectAccount(the.admin, added);
      expect(status).toBe('connected');
      expect(standin.resources.at(-1)).toBe(standin.url);
      const listed = McpServerSchema.parse((await api(the.admin, 'GET', `${BASE}/${added.id}`)).json());
      expect(
        listed.tools.map((t) => t.name),
        name,
      ).toEqual(['echo']);
    }
  });

  it('a callback that is unknown, refused or replayed connects nobody', async () => {
    const unknown = await the.t.app.inject({
      method: 'GET',
      url: `${BASE}/oauth/callback?code=x&state=nope`,
    });
    expect(new URL(unknown.headers.location as string).searchParams.get('status')).toBe('expired');
    const res = await api(the.bob, 'GET', `${BASE}/${server.id}/connect`);
    const state = new URL((res.json() as { authorizationUrl: string }).authorizationUrl).searchParams.get(
      'state',
    );
    const denied = await the.t.app.inject({
      method: 'GET',
      url: `${BASE}/oauth/callback?error=access_denied&state=${state}`,
    });
    expect(new URL(denied.headers.location as string).searchParams.get('status')).toBe('denied');
    const replay = await the.t.app.inject({
      method: 'GET',
      url: `${BASE}/oauth/callback?code=x&state=${state}`,
    });
    expect(new URL(replay.headers.location as string).searchParams.get('status')).toBe('expired');
    const bobs = McpServerSchema.parse((await api(the.admin, 'GET', `${BASE}/${server.id}`)).json());
    expect(bobs.connected).toBe(true); // the Admin's own connection, untouched
  });

  it('another domain cannot connect to the server; a deactivated person’s tokens are dropped', async () => {
    expect((await api(the.outsider, 'GET', `${BASE}/${server.id}/connect`)).statusCode).toBe(404);
    await connectAccount(the.bob, server);
    const tokensOf = async (who: TestUser) =>
      (await the.t.ctx.db.select().from(mcpTokens).where(eq(mcpTokens.userId, who.user.id))).length;
    expect(await tokensOf(the.bob)).toBe(1);
    const userUrl = `/api/v1/user/${encodeURIComponent(the.bob.user.id)}`;
    const current = (await api(the.admin, 'GET', userUrl)).json() as object;
    const off = await api(the.admin, 'PUT', userUrl, { ...current, active: false });
    expect(off.statusCode, off.body).toBe(200);
    await expect.poll(() => tokensOf(the.bob)).toBe(0);
  });
});

describe('people’s own MCP servers', () => {
  it('only when the domain allows it, seen and managed by their owner alone', async () => {
    const carol = await makeUser(the.t.ctx, { domain: the.dom });
    const payload = { displayName: 'Meu servidor', url: plain.url, scope: 'user' };
    expect((await api(the.alice, 'POST', BASE, payload)).statusCode).toBe(403);
    await api(the.admin, 'PUT', '/api/v1/settings/tools', {
      rules: [{ match: 'mcp:*', decision: 'allow' }],
      userServers: true,
    });
    const created = await api(the.alice, 'POST', BASE, payload);
    expect(created.statusCode, created.body).toBe(201);
    const own = McpServerSchema.parse(created.json());
    expect(own).toMatchObject({ scope: 'user', ownerId: the.alice.user.id });
    expect(own.tools.map((t) => t.name)).toContain('echo');

    const listed = (who: TestUser) => api(who, 'GET', BASE).then((r) => r.json() as McpServer[]);
    // A person's list: their own servers, and the domain's OAuth servers to connect to.
    const alices = await listed(the.alice);
    expect(alices.filter((x) => x.scope === 'user').map((x) => x.id)).toEqual([own.id]);
    expect(alices.filter((x) => x.scope === 'domain').every((x) => x.auth.kind === 'oauth')).toBe(true);
    expect((await listed(the.admin)).map((x) => x.id)).not.toContain(own.id);
    expect((await listed(carol)).filter((x) => x.scope === 'user')).toEqual([]);
    expect((await api(carol, 'GET', `${BASE}/${own.id}`)).statusCode).toBe(404);
    expect((await api(the.admin, 'DELETE', `${BASE}/${own.id}`)).statusCode).toBe(404);
    // A person cannot touch the domain's servers.
    expect((await api(the.alice, 'DELETE', `${BASE}/${server.id}`)).statusCode).toBe(403);

    const tools = (who: TestUser) =>
      api(who, 'GET', '/api/v1/agent/tools').then((r) =>
        ToolListSchema.parse(r.json()).tools.map((t) => t.serverId),
      );
    expect(await tools(the.alice)).toContain(own.id);
    expect(await tools(carol)).not.toContain(own.id);
    expect((await api(the.alice, 'DELETE', `${BASE}/${own.id}`)).statusCode).toBe(204);
  });
});
