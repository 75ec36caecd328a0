import { createServer } from 'node:http';
import { McpLimits, type McpServer, McpServerSchema } from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, mcpServers } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { makeDomain, makeUser, type TestDomain, type TestUser } from '../../test/factories.ts';
import { type McpStandin, startMcpStandin } from '../../test/mcp-standin.ts';
import { freePort } from '../../test/server-process.ts';

const BASE = '/api/v1/integration/mcp';
const SECRET = 'sk-standin-0123456789';

let t: TestApp;
let open: McpStandin;
let secured: McpStandin;
/** Offers more tools than a server may keep. */
let crowded: McpStandin;
/** A port in the allowlist where nothing listens. */
let silentUrl: string;
/** A port in the allowlist for a server that redirects elsewhere. */
let redirectorPort: number;
let a: TestDomain;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let otherAdmin: TestUser;
let superAdmin: TestUser;

async function api(who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
}

async function add(payload: object, who = admin): Promise<McpServer> {
  const res = await api(who, 'POST', BASE, payload);
  expect(res.statusCode, res.body).toBe(201);
  return McpServerSchema.parse(res.json());
}

const serverCount = async () => (await t.ctx.db.select().from(mcpServers)).length;

beforeAll(async () => {
  open = await startMcpStandin();
  secured = await startMcpStandin({ requireHeader: { name: 'X-Api-Key', value: SECRET } });
  crowded = await startMcpStandin({ extraTools: 210 });
  const gone = await startMcpStandin();
  silentUrl = gone.url;
  await gone.close();
  redirectorPort = await freePort();
  const allow = [open.port, secured.port, crowded.port, new URL(silentUrl).port, redirectorPort]
    .map((p) => `127.0.0.1:${p}`)
    .join(',');
  t = await buildTestApp({ PROVIDER_URL_ALLOWLIST: allow });
  a = await makeDomain(t.ctx);
  admin = await makeUser(t.ctx, { domain: a, role: 'Admin' });
  editor = await makeUser(t.ctx, { domain: a, role: 'Editor' });
  viewer = await makeUser(t.ctx, { domain: a, role: 'Viewer' });
  otherAdmin = await makeUser(t.ctx, { domain: await makeDomain(t.ctx), role: 'Admin' });
  superAdmin = await makeUser(t.ctx, { role: 'SuperAdmin' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await open?.close();
  await secured?.close();
  await crowded?.close();
});

describe('MCP servers of a domain (/api/v1/integration/mcp)', () => {
  it('an Admin adds a server without auth and sees its tools, discovered with the official SDK', async () => {
    const server = await add({ displayName: 'Records', url: open.url });
    expect(server).toMatchObject({
      domain: a.domain.id,
      displayName: 'Records',
      url: open.url,
      scope: 'domain',
      auth: { kind: 'none' },
      enabled: true,
      lastError: null,
      visibleTo: { roles: [], departments: [] },
    });
    expect(server.toolsAt).not.toBeNull();
    expect(server.tools).toEqual([
      expect.objectContaining({ name: 'echo', description: 'Says back what it is given', readOnly: false }),
      expect.objectContaining({ name: 'lookup', title: 'Look up a record', readOnly: true }),
      expect.objectContaining({ name: 'sleep' }),
    ]);
    expect(server.tools[0]?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
    const [audit] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'mcp.create'), eq(auditEntries.targetId, server.id)));
    expect(audit).toBeDefined();
  });

  it('seals a header’s value: sent to the server, never shown, not stored in clear', async () => {
    const server = await add({
      displayName: 'Secured',
      url: secured.url,
      auth: { kind: 'header', name: 'X-Api-Key', value: SECRET },
    });
    expect(server.lastError).toBeNull();
    expect(server.tools.map((tool) => tool.name)).toEqual(['echo', 'lookup', 'sleep']);
    expect(server.auth).toEqual({ kind: 'header', name: 'X-Api-Key', hasValue: true });
    expect(secured.requests.at(-1)?.headers['x-api-key']).toBe(SECRET);
    const listed = await api(admin, 'GET', BASE);
    expect(listed.body).not.toContain(SECRET);
    const [row] = await t.ctx.db.select().from(mcpServers).where(eq(mcpServers.id, server.id));
    expect(row?.authValueEnc).toBeTruthy();
    expect(row?.authValueEnc).not.toContain(SECRET);
    const audits = await t.ctx.db.select().from(auditEntries).where(eq(auditEntries.targetId, server.id));
    expect(JSON.stringify(audits)).not.toContain(SECRET);
  });

  it('keeps a server it cannot use, saying why; a new header value discovers its tools again', async () => {
    const wrong = await add({
      displayName: 'Wrong key',
      url: secured.url,
      auth: { kind: 'header', name: 'X-Api-Key', value: 'not-the-key' },
    });
    expect(wrong.tools).toEqual([]);
    expect(wrong.toolsAt).toBeNull();
    expect(wrong.lastError?.reason).toBe('unauthorized');
    const fixed = await api(admin, 'PUT', `${BASE}/${wrong.id}`, {
      auth: { kind: 'header', name: 'X-Api-Key', value: SECRET },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(McpServerSchema.parse(fixed.json())).toMatchObject({ lastError: null, auth: { hasValue: true } });
    expect(McpServerSchema.parse(fixed.json()).tools).toHaveLength(3);
    // A rename alone keeps the header's value and calls nobody.
    const before = secured.requests.length;
    const renamed = await api(admin, 'PUT', `${BASE}/${wrong.id}`, { displayName: 'Right key' });
    expect(McpServerSchema.parse(renamed.json())).toMatchObject({
      displayName: 'Right key',
      auth: { hasValue: true },
    });
    expect(secured.requests).toHaveLength(before);
    const down = await add({ displayName: 'Down', url: silentUrl });
    expect(down.lastError?.reason).toBe('unreachable');
  });

  it('refuses private, link-local and unlisted loopback addresses naming the field, storing nothing', async () => {
    const count = await serverCount();
    for (const url of [
      'http://169.254.169.254/mcp',
      'http://127.0.0.1:1/mcp',
      'http://[::1]:9/mcp',
      'http://0x7f000001/mcp',
    ]) {
      const res = await api(admin, 'POST', BASE, { displayName: 'Sneaky', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details?.[0]?.path, url).toBe('url');
    }
    for (const payload of [
      { displayName: 'Bad header', url: open.url, auth: { kind: 'header', name: 'Bad Header', value: 'x' } },
      { displayName: '', url: open.url },
      { displayName: 'Creds', url: 'http://user:pass@127.0.0.1/mcp' },
    ]) {
      expect((await api(admin, 'POST', BASE, payload)).statusCode).toBe(400);
    }
    expect(await serverCount()).toBe(count);
  });

  it('does not follow a server that redirects to a private address', async () => {
    // An allowed host whose answer sends the client to the cloud metadata address.
    const redirector = createServer((_req, res) => {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(redirectorPort, '127.0.0.1', resolve));
    try {
      const server = await add({ displayName: 'Redirects', url: `http://127.0.0.1:${redirectorPort}/mcp` });
      expect(server.lastError?.reason).toBe('blocked');
      expect(server.tools).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });

  it('is for Admins of the domain: Editors and Viewers see none and change none, another domain sees nothing of it', async () => {
    const server = await add({ displayName: 'Mine', url: open.url });
    for (const who of [editor, viewer]) {
      // Their list holds only servers of their own (none here), never the domain's.
      expect((await api(who, 'GET', BASE)).json()).toEqual([]);
      expect((await api(who, 'GET', `${BASE}/${server.id}`)).statusCode).toBe(403);
      expect((await api(who, 'POST', BASE, { displayName: 'X', url: open.url })).statusCode).toBe(403);
      expect((await api(who, 'DELETE', `${BASE}/${server.id}`)).statusCode).toBe(403);
    }
    const theirs = await api(otherAdmin, 'GET', BASE);
    expect(theirs.json()).toEqual([]);
    for (const [method, url] of [
      ['GET', `${BASE}/${server.id}`],
      ['PUT', `${BASE}/${server.id}`],
      ['DELETE', `${BASE}/${server.id}`],
      ['POST', `${BASE}/${server.id}/refresh`],
    ] as const) {
      const res = await api(otherAdmin, method, url, method === 'PUT' ? { displayName: 'Taken' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // An Admin naming another domain is refused; a SuperAdmin acts on any.
    expect((await api(otherAdmin, 'GET', `${BASE}?domain=${a.domain.id}`)).statusCode).toBe(403);
    const all = await api(superAdmin, 'GET', `${BASE}?domain=${a.domain.id}`);
    expect(all.statusCode).toBe(200);
    expect((all.json() as McpServer[]).map((s) => s.id)).toContain(server.id);
    expect(McpServerSchema.parse((await api(admin, 'GET', `${BASE}/${server.id}`)).json()).displayName).toBe(
      'Mine',
    );
  });

  it('keeps at most 200 of a server’s tools', async () => {
    const server = await add({ displayName: 'Crowded', url: crowded.url });
    expect(server.tools).toHaveLength(McpLimits.toolsPerServer);
    expect(server.tools.slice(0, 3).map((tool) => tool.name)).toEqual(['echo', 'lookup', 'sleep']);
  });

  it('refreshes a server’s tools, and removes a server with an audit row', async () => {
    const server = await add({ displayName: 'To go', url: open.url });
    const refreshed = await api(admin, 'POST', `${BASE}/${server.id}/refresh`);
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(Date.parse(McpServerSchema.parse(refreshed.json()).toolsAt ?? '')).toBeGreaterThanOrEqual(
      Date.parse(server.toolsAt ?? ''),
    );
    expect((await api(admin, 'DELETE', `${BASE}/${server.id}`)).statusCode).toBe(204);
    expect((await api(admin, 'GET', `${BASE}/${server.id}`)).statusCode).toBe(404);
    const [audit] = await t.ctx.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'mcp.delete'), eq(auditEntries.targetId, server.id)));
    expect(audit?.before).toMatchObject({ displayName: 'To go', url: open.url });
  });
});
