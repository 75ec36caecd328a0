import { randomBytes } from 'node:crypto';
import {
  McpLimits,
  type McpServer,
  type McpServerCreate,
  type McpServerUpdate,
  type McpVisibility,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { assertFieldUrlAllowed } from '../../lib/ssrf.ts';
import { type AuditMeta, auditedTransaction, changedFields } from '../audit/index.ts';
import { discoverTools } from './discovery.ts';
import { mcpServerNotFound, tooManyMcpServers } from './errors.ts';
import { adminDomain, type ToolsState } from './state.ts';
import { type McpServerPatch, type McpServerRow, mcpServersStore } from './store.ts';

const newServerId = () => `mcp${randomBytes(6).toString('hex')}`;
const NO_ONE_NAMED: McpVisibility = { roles: [], departments: [] };

function toDto(row: McpServerRow): McpServer {
  return {
    id: row.id,
    domain: row.domainId,
    displayName: row.displayName,
    url: row.url,
    scope: 'domain',
    visibleTo: row.visibleTo,
    auth:
      row.authKind === 'header'
        ? { kind: 'header', name: row.authHeaderName ?? '', hasValue: Boolean(row.authValueEnc) }
        : { kind: 'none' },
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
  auth: row.authKind === 'header' ? `header ${row.authHeaderName}` : 'none',
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

/** Lists the server's tools now and keeps what was found, or why nothing was. */
async function discover(s: ToolsState, row: McpServerRow): Promise<McpServerRow> {
  const found = await discoverTools(s, { url: row.url, headers: headersOf(s, row) });
  const patch: McpServerPatch = found.ok
    ? { tools: found.tools, toolsAt: new Date(), lastError: null }
    : { lastError: { reason: found.reason, message: found.message.slice(0, 1_000) } };
  return (await s.store.update(row.domainId, row.id, patch)) ?? row;
}

async function serverOf(s: ToolsState, domainId: string, id: string): Promise<McpServerRow> {
  const row = await s.store.find(domainId, id);
  if (!row) throw mcpServerNotFound();
  return row;
}

export async function list(s: ToolsState, caller: UserCaller, domain?: string): Promise<McpServer[]> {
  const domainId = await adminDomain(s, caller, domain);
  return (await s.store.list(domainId)).map(toDto);
}

export async function get(
  s: ToolsState,
  caller: UserCaller,
  id: string,
  domain?: string,
): Promise<McpServer> {
  const domainId = await adminDomain(s, caller, domain);
  return toDto(await serverOf(s, domainId, id));
}

/** Adds a server and discovers its tools at once (a failure is kept on the server, not refused). */
export async function create(
  s: ToolsState,
  caller: UserCaller,
  body: McpServerCreate,
  meta: AuditMeta,
  domain?: string,
): Promise<McpServer> {
  const domainId = await adminDomain(s, caller, domain);
  await assertFieldUrlAllowed('url', body.url, s.ctx.config.PROVIDER_URL_ALLOWLIST);
  if ((await s.store.count(domainId)) >= McpLimits.perDomain) throw tooManyMcpServers();
  const id = newServerId();
  const auth = body.auth ?? { kind: 'none' };
  const row = await auditedTransaction(s.ctx.db, caller, meta, mcpServersStore, async (tx) => {
    const inserted = await tx.insert({
      id,
      domainId,
      displayName: body.displayName,
      url: body.url,
      visibleTo: body.visibleTo ?? NO_ONE_NAMED,
      authKind: auth.kind,
      authHeaderName: auth.kind === 'header' ? auth.name : null,
      authValueEnc: auth.kind === 'header' && auth.value ? s.box.seal(auth.value, id) : null,
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
  return toDto(await discover(s, row));
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
  const domainId = await adminDomain(s, caller, domain);
  const current = await serverOf(s, domainId, id);
  const patch: McpServerPatch = {};
  if (body.displayName !== undefined) patch.displayName = body.displayName;
  if (body.url !== undefined && body.url !== current.url) {
    await assertFieldUrlAllowed('url', body.url, s.ctx.config.PROVIDER_URL_ALLOWLIST);
    patch.url = body.url;
  }
  if (body.visibleTo !== undefined) patch.visibleTo = body.visibleTo;
  if (body.enabled !== undefined) patch.enabled = body.enabled;
  if (body.auth !== undefined) {
    patch.authKind = body.auth.kind;
    if (body.auth.kind === 'none') {
      patch.authHeaderName = null;
      patch.authValueEnc = null;
    } else {
      patch.authHeaderName = body.auth.name;
      // An absent value keeps the stored one: the form never has it to send back.
      if (body.auth.value) patch.authValueEnc = s.box.seal(body.auth.value, id);
    }
  }
  const row = await auditedTransaction(s.ctx.db, caller, meta, mcpServersStore, async (tx) => {
    const updated = await tx.update(domainId, id, patch);
    if (!updated) throw mcpServerNotFound();
    const diff = changedFields(audited(current), audited(updated));
    if (patch.authValueEnc) diff.after.headerValueReplaced = true;
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
  return toDto(reached ? await discover(s, row) : row);
}

export async function remove(
  s: ToolsState,
  caller: UserCaller,
  id: string,
  meta: AuditMeta,
  domain?: string,
): Promise<void> {
  const domainId = await adminDomain(s, caller, domain);
  const current = await serverOf(s, domainId, id);
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
  const domainId = await adminDomain(s, caller, domain);
  return toDto(await discover(s, await serverOf(s, domainId, id)));
}
