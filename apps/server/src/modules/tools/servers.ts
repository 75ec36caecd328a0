import { randomBytes } from 'node:crypto';
import {
  McpLimits,
  type McpServer,
  type McpServerCreate,
  type McpServerUpdate,
  type McpVisibility,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { forbidden } from '../../lib/errors.ts';
import { assertFieldUrlAllowed } from '../../lib/ssrf.ts';
import { type AuditMeta, auditedTransaction, changedFields } from '../audit/index.ts';
import { visibleTo } from './catalogue.ts';
import { discoverTools } from './discovery.ts';
import { mcpServerNotFound, tooManyMcpServers } from './errors.ts';
import * as oauth from './oauth.ts';
import { connectedServers, StoredOAuth } from './oauth.ts';
import { can } from './policy.ts';
import { adminDomain, type ToolsState } from './state.ts';
import { type McpServerPatch, type McpServerRow, mcpServersStore } from './store.ts';

const newServerId = () => `mcp${randomBytes(6).toString('hex')}`;
const NO_ONE_NAMED: McpVisibility = { roles: [], departments: [] };

function authDto(row: McpServerRow): McpServer['auth'] {
  if (row.authKind === 'header')
    return { kind: 'header', name: row.authHeaderName ?? '', hasValue: Boolean(row.authValueEnc) };
  if (row.authKind === 'oauth')
    return {
      kind: 'oauth',
      clientId: row.oauthClientId,
      hasClientSecret: Boolean(row.oauthClientSecretEnc),
      scopes: row.oauthScopes,
    };
  return { kind: 'none' };
}

function toDto(row: McpServerRow, connected?: ReadonlySet<string>): McpServer {
  return {
    id: row.id,
    domain: row.domainId,
    displayName: row.displayName,
    url: row.url,
    scope: row.ownerId ? 'user' : 'domain',
    ownerId: row.ownerId,
    visibleTo: row.visibleTo,
    auth: authDto(row),
    connected: row.authKind === 'oauth' ? (connected?.has(row.id) ?? false) : null,
    enabled: row.enabled,
    tools: row.tools,
    toolsAt: row.toolsAt?.toISOString() ?? null,
    lastError: row.lastError ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a server: never the header's value, only whether there is one. */
const audited = (row: McpServerRow) => ({
  displayName: row.displayName,
  url: row.url,
  visibleTo: row.visibleTo,
  auth:
    row.authKind === 'header'
      ? `header ${row.authHeaderName}`
      : row.authKind === 'oauth'
        ? `oauth ${row.oauthClientId ?? 'registered dynamically'}`
        : 'none',
  scope: row.ownerId ? 'user' : 'domain',
  enabled: row.enabled,
});

/** The headers a server's requests carry: its auth header, opened. */
export function headersOf(
  s: ToolsState,
  row: Pick<McpServerRow, 'id' | 'authKind' | 'authHeaderName' | 'authValueEnc'>,
) {
  if (row.authKind !== 'header' || !row.authHeaderName || !row.authValueEnc) return {};
  try {
    return { [row.authHeaderName]: s.box.open(row.authValueEnc, row.id) };
  } catch (err) {
    // A changed SECRET_KEY makes stored values unreadable: the server then answers as to no header.
    s.ctx.log.error({ err, server: row.id }, 'cannot decrypt an MCP server header (was SECRET_KEY changed?)');
    return {};
  }
}

/**
 * Lists the server's tools now and keeps what was found, or why nothing was. An OAuth server is
 * listed as `asUser` (connected): nobody connected yet is `not_connected`, not a failure.
 */
export async function discover(s: ToolsState, row: McpServerRow, asUser?: string): Promise<McpServerRow> {
  if (row.authKind === 'oauth' && !(asUser && (await connectedServers(s, asUser, [row.id])).has(row.id))) {
    const lastError = {
      reason: 'not_connected' as const,
      message: 'Connect an account to this server to list its tools.',
    };
    return (await s.store.update(row.domainId, row.id, { lastError })) ?? row;
  }
  const found = await discoverTools(s, {
    url: row.url,
    headers: headersOf(s, row),
    ...(row.authKind === 'oauth' && asUser ? { authProvider: new StoredOAuth(s, row, asUser) } : {}),
  });
  const patch: McpServerPatch = found.ok
    ? { tools: found.tools, toolsAt: new Date(), lastError: null }
    : { lastError: { reason: found.reason, message: found.message.slice(0, 1_000) } };
  return (await s.store.update(row.domainId, row.id, patch)) ?? row;
}

const isAdmin = (caller: UserCaller) => can(caller, 'manage', caller.domain.id);

/**
 * A server the caller manages: a domain's for its Admins (a SuperAdmin any, with `?domain=`), a
 * private one for its owner only. Someone else's private server is not found, whoever asks.
 */
async function manageable(
  s: ToolsState,
  caller: UserCaller,
  id: string,
  domain?: string,
): Promise<McpServerRow> {
  const domainId = isAdmin(caller) ? await adminDomain(s, caller, domain) : caller.domain.id;
  const row = await s.store.find(domainId, id);
  if (!row || (row.ownerId !== null && row.ownerId !== caller.user.id)) throw mcpServerNotFound();
  if (row.ownerId === null && !isAdmin(caller))
    throw forbidden('Only Admins manage the domain’s MCP servers');
  return row;
}

/** The DTOs as the caller sees them: with whether they connected to each OAuth server. */
async function dtosFor(s: ToolsState, caller: UserCaller, rows: McpServerRow[]): Promise<McpServer[]> {
  const oauth = rows.filter((r) => r.authKind === 'oauth').map((r) => r.id);
  const connected = await connectedServers(s, caller.user.id, oauth);
  return rows.map((r) => toDto(r, connected));
}

/**
 * An Admin's list: the domain's servers and their own. Anyone else's: their own private ones, and
 * the domain's OAuth servers they see (to connect their account; they change none of them).
 */
export async function list(s: ToolsState, caller: UserCaller, domain?: string): Promise<McpServer[]> {
  const domainId = isAdmin(caller) ? await adminDomain(s, caller, domain) : caller.domain.id;
  const rows = (await s.store.list(domainId)).filter((r) =>
    r.ownerId !== null
      ? r.ownerId === caller.user.id
      : isAdmin(caller) || (r.authKind === 'oauth' && r.enabled && visibleTo(r, caller)),
  );
  return dtosFor(s, caller, rows);
}

export async function get(
  s: ToolsState,
  caller: UserCaller,
  id: string,
  domain?: string,
): Promise<McpServer> {
  const [dto] = await dtosFor(s, caller, [await manageable(s, caller, id, domain)]);
  return dto as McpServer;
}

/** Where a domain may have one more server, or a person one more private one. */
async function assertRoom(s: ToolsState, caller: UserCaller, domainId: string, scope: 'domain' | 'user') {
  if (scope === 'domain') {
    if (!isAdmin(caller)) throw forbidden('Only Admins add MCP servers for the domain');
    if ((await s.store.count(domainId)) >= McpLimits.perDomain) throw tooManyMcpServers();
    return;
  }
  if (!(await s.policies.get(caller.domain.id)).userServers) {
    throw forbidden('Your organisation does not let people add their own MCP servers');
  }
  const own = (await s.store.list(caller.domain.id)).filter((r) => r.ownerId === caller.user.id);
  if (own.length >= McpLimits.perUser) throw tooManyMcpServers(McpLimits.perUser);
}

/** The sealed columns of an auth input; an absent secret keeps the stored one (`undefined`). */
function authColumns(s: ToolsState, id: string, auth: McpServerCreate['auth'] & object): McpServerPatch {
  if (auth.kind === 'none')
    return {
      authKind: 'none',
      authHeaderName: null,
      authValueEnc: null,
      oauthClientId: null,
      oauthClientSecretEnc: null,
      oauthScopes: [],
    };
  if (auth.kind === 'header')
    return {
      authKind: 'header',
      authHeaderName: auth.name,
      // An absent value keeps the stored one: the form never has it to send back.
      ...(auth.value ? { authValueEnc: s.box.seal(auth.value, id) } : {}),
      oauthClientId: null,
      oauthClientSecretEnc: null,
      oauthScopes: [],
    };
  return {
    authKind: 'oauth',
    authHeaderName: null,
    authValueEnc: null,
    oauthClientId: auth.clientId ?? null,
    ...(auth.clientSecret
      ? { oauthClientSecretEnc: s.box.seal(auth.clientSecret, `${id}:client-secret`) }
      : auth.clientId
        ? {}
        : { oauthClientSecretEnc: null }),
    oauthScopes: auth.scopes ?? [],
  };
}

/** Adds a server and discovers its tools at once (a failure is kept on the server, not refused). */
export async function create(
  s: ToolsState,
  caller: UserCaller,
  body: McpServerCreate,
  meta: AuditMeta,
  domain?: string,
): Promise<McpServer> {
  const scope = body.scope ?? 'domain';
  const domainId =
    scope === 'domain' && isAdmin(caller) ? await adminDomain(s, caller, domain) : caller.domain.id;
  await assertRoom(s, caller, domainId, scope);
  await assertFieldUrlAllowed('url', body.url, s.ctx.config.PROVIDER_URL_ALLOWLIST);
  const id = newServerId();
  const row = await auditedTransaction(s.ctx.db, caller, meta, mcpServersStore, async (tx) => {
    const inserted = await tx.insert({
      id,
      domainId,
      ownerId: scope === 'user' ? caller.user.id : null,
      displayName: body.displayName,
      url: body.url,
      // A private server is its owner's alone: nobody else is named.
      visibleTo: scope === 'user' ? NO_ONE_NAMED : (body.visibleTo ?? NO_ONE_NAMED),
      ...authColumns(s, id, body.auth ?? { kind: 'none' }),
      enabled: body.enabled ?? true,
    });
    return {
      result: inserted,
      audit: {
        action: 'mcp.create',
        targetType: 'mcpServer',
        targetId: id,
        domainId,
        after: audited(inserted),
      },
    };
  });
  const [dto] = await dtosFor(s, caller, [await discover(s, row, caller.user.id)]);
  return dto as McpServer;
}

/** Changes a server; a new URL or auth discovers its tools again. */
export async function update(
  s: ToolsState,
  caller: UserCaller,
  id: string,
  body: McpServerUpdate,
  meta: AuditMeta,
  domain?: string,
): Promise<McpServer> {
  const current = await manageable(s, caller, id, domain);
  const domainId = current.domainId;
  const patch: McpServerPatch = {};
  if (body.displayName !== undefined) patch.displayName = body.displayName;
  if (body.url !== undefined && body.url !== current.url) {
    await assertFieldUrlAllowed('url', body.url, s.ctx.config.PROVIDER_URL_ALLOWLIST);
    patch.url = body.url;
  }
  if (body.visibleTo !== undefined && current.ownerId === null) patch.visibleTo = body.visibleTo;
  if (body.enabled !== undefined) patch.enabled = body.enabled;
  if (body.auth !== undefined) Object.assign(patch, authColumns(s, id, body.auth));
  const row = await auditedTransaction(s.ctx.db, caller, meta, mcpServersStore, async (tx) => {
    const updated = await tx.update(domainId, id, patch);
    if (!updated) throw mcpServerNotFound();
    const diff = changedFields(audited(current), audited(updated));
    if (patch.authValueEnc) diff.after.headerValueReplaced = true;
    if (patch.oauthClientSecretEnc) diff.after.clientSecretReplaced = true;
    return {
      result: updated,
      audit: {
        action: 'mcp.update',
        targetType: 'mcpServer',
        targetId: id,
        domainId,
        before: { displayName: current.displayName, ...diff.before },
        after: { displayName: updated.displayName, ...diff.after },
      },
    };
  });
  const reached = patch.url !== undefined || body.auth !== undefined;
  const [dto] = await dtosFor(s, caller, [reached ? await discover(s, row, caller.user.id) : row]);
  return dto as McpServer;
}

export async function remove(
  s: ToolsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
  domain?: string,
): Promise<void> {
  const current = await manageable(s, caller, id, domain);
  const domainId = current.domainId;
  await auditedTransaction(s.ctx.db, caller, meta, mcpServersStore, async (tx) => {
    if (!(await tx.remove(domainId, id))) throw mcpServerNotFound();
    return {
      result: undefined,
      audit: {
        action: 'mcp.delete',
        targetType: 'mcpServer',
        targetId: id,
        domainId,
        before: audited(current),
      },
    };
  });
}

/** Lists the server's tools again (POST …/{id}/refresh). */
export async function refresh(
  s: ToolsState,
  caller: UserCaller,
  id: string,
  domain?: string,
): Promise<McpServer> {
  const row = await manageable(s, caller, id, domain);
  const [dto] = await dtosFor(s, caller, [await discover(s, row, caller.user.id)]);
  return dto as McpServer;
}

/** A server the caller may connect their account to: one they see, or any of the domain's for its Admins. */
async function connectable(s: ToolsState, caller: UserCaller, id: string): Promise<McpServerRow> {
  const row = await s.store.find(caller.domain.id, id);
  if (!row || !(visibleTo(row, caller) || (row.ownerId === null && isAdmin(caller))))
    throw mcpServerNotFound();
  return row;
}

/** GET …/{id}/connect */
export async function connect(s: ToolsState, caller: UserCaller, id: string, base: string) {
  return oauth.startConnect(s, await connectable(s, caller, id), caller.user.id, base);
}

/** DELETE …/{id}/connect */
export async function disconnect(s: ToolsState, caller: UserCaller, id: string): Promise<void> {
  await oauth.disconnect(s, (await connectable(s, caller, id)).id, caller.user.id);
}

/** The OAuth callback: keeps the tokens; a server whose tools were never listed is listed now. */
export async function finishConnect(
  s: ToolsState,
  q: { code?: string; state?: string; error?: string },
  base: string,
): Promise<oauth.ConnectOutcome> {
  const done = await oauth.finishConnect(s, q, base);
  if (
    done.outcome === 'connected' &&
    done.server &&
    done.userId &&
    (done.server.lastError || !done.server.toolsAt)
  ) {
    await discover(s, done.server, done.userId);
  }
  return done.outcome;
}
