import { createHash } from 'node:crypto';
import type { ToolDecision, ToolInfo, ToolList } from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { recordAudit } from '../audit/index.ts';
import type { ChatCaller } from '../chats/index.ts';
import type { McpTarget, ToolOutput } from './connections.ts';
import { StoredOAuth } from './oauth.ts';
import { headersOf } from './servers.ts';
import type { ToolsState } from './state.ts';
import type { McpServerRow } from './store.ts';
import { decide, policyOf } from './tool-policy.ts';

/** A tool an answer may call: what the model is offered, and where the call goes. */
export interface AnswerTool {
  /** `mcp:{serverId}:{name}`: what policy rules, santitos and message parts name. */
  ref: string;
  /** The function name the model sees (letters, digits, `_`, `-`; unique within the answer). */
  modelName: string;
  /** What people read: the server's name and the tool's title. */
  title: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  decision: ToolDecision;
  serverId: string;
  name: string;
  target: McpTarget;
  /** The connection's key: one per user and server version. */
  connection: string;
}

/** Whether a person of this role and department sees a server's tools; a private server, its owner only. */
export function visibleTo(row: McpServerRow, caller: ChatCaller | UserCaller): boolean {
  if (row.ownerId !== null) return caller.kind === 'user' && row.ownerId === caller.user.id;
  const { roles, departments } = row.visibleTo;
  if (roles.length === 0 && departments.length === 0) return true;
  // A visitor has neither a role nor a department: only servers open to everyone.
  if (caller.kind === 'visitor') return false;
  return (
    (roles.length === 0 || roles.includes(caller.role)) &&
    (departments.length === 0 || departments.includes(caller.user.departmentId))
  );
}

/** The enabled servers of the caller's domain they may use, and the domain's policy. */
async function usableServers(s: ToolsState, caller: ChatCaller | UserCaller) {
  const [servers, policy] = await Promise.all([
    s.store.list(caller.domain.id),
    policyOf(s.ctx.db, caller.domain.id),
  ]);
  return { servers: servers.filter((r) => r.enabled && visibleTo(r, caller)), policy };
}

const refMatches = (refs: readonly string[], serverId: string, name: string) =>
  refs.includes(`mcp:${serverId}:*`) || refs.includes(`mcp:${serverId}:${name}`);

const modelNameOf = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 56) || 'tool';

/**
 * The tools an answer may call: those `refs` name, of servers the caller sees, less what the
 * domain's policy denies (the model is never offered them). Names the model sees are the tools'
 * own, made unique with the server's id when two servers offer the same name.
 */
export async function answerTools(
  s: ToolsState,
  caller: ChatCaller,
  refs: readonly string[],
): Promise<AnswerTool[]> {
  if (refs.length === 0) return [];
  const { servers, policy } = await usableServers(s, caller);
  const tools: AnswerTool[] = [];
  const taken = new Set<string>();
  for (const row of servers) {
    const target = {
      url: row.url,
      headers: headersOf(s, row),
      ...(row.authKind === 'oauth' ? { authProvider: new StoredOAuth(s, row, caller.user.id) } : {}),
    };
    for (const t of row.tools) {
      if (!refMatches(refs, row.id, t.name)) continue;
      const ref = `mcp:${row.id}:${t.name}`;
      const decision = decide(policy.rules, ref, t.readOnly);
      if (decision === 'deny') continue;
      let modelName = modelNameOf(t.name);
      if (taken.has(modelName)) modelName = `${modelName}_${row.id.slice(-6)}`;
      taken.add(modelName);
      tools.push({
        ref,
        modelName,
        title: `${row.displayName} · ${t.title ?? t.name}`,
        ...(t.description ? { description: t.description } : {}),
        inputSchema: t.inputSchema,
        decision,
        serverId: row.id,
        name: t.name,
        target,
        connection: `${caller.user.id}|${row.id}|${row.updatedAt.getTime()}`,
      });
    }
  }
  return tools;
}

/**
 * Runs one call on the tool's server, within TOOL_TIMEOUT_MS; aborting `signal` (Stop) cancels it.
 * Throws when the call could not be made or timed out.
 */
export function runTool(
  s: ToolsState,
  tool: AnswerTool,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolOutput> {
  const timeoutMs = s.ctx.config.TOOL_TIMEOUT_MS;
  return s.connections.call(tool.connection, tool.target, tool.name, input, {
    signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    timeoutMs,
  });
}

/** What the audit keeps of a call: the tool, a hash of its input (never the input), the outcome. */
export async function auditCall(
  s: ToolsState,
  caller: ChatCaller,
  call: {
    ref: string;
    input: unknown;
    decision: 'allow' | 'ask' | 'deny' | 'allowed' | 'denied';
    status: string;
    durationMs?: number;
    chatId: string;
  },
): Promise<void> {
  const inputHash = createHash('sha256')
    .update(JSON.stringify(call.input ?? null))
    .digest('hex');
  await recordAudit(
    s.ctx.db,
    caller,
    { ip: null, userAgent: null },
    {
      action: 'tool.call',
      targetType: 'tool',
      targetId: call.ref,
      domainId: caller.domain.id,
      after: {
        inputSha256: inputHash,
        decision: call.decision,
        status: call.status,
        chatId: call.chatId,
        ...(call.durationMs !== undefined ? { durationMs: call.durationMs } : {}),
      },
    },
  );
}

/** GET /api/v1/agent/tools: the tools of the servers the caller sees, with what the policy decides. */
export async function listTools(s: ToolsState, caller: UserCaller): Promise<ToolList> {
  const { servers, policy } = await usableServers(s, caller);
  const tools: ToolInfo[] = [];
  for (const row of servers) {
    for (const t of row.tools) {
      const ref = `mcp:${row.id}:${t.name}`;
      tools.push({
        ref,
        serverId: row.id,
        serverName: row.displayName,
        name: t.name,
        title: t.title,
        description: t.description,
        readOnly: t.readOnly,
        decision: decide(policy.rules, ref, t.readOnly),
      });
    }
  }
  return { tools, userServers: policy.userServers };
}

/**
 * The references that name no server the caller sees: their domain's, or their own private ones
 * (no built-in tool exists yet: each is refused).
 */
export async function unknownRefs(
  s: ToolsState,
  caller: UserCaller,
  refs: readonly string[],
): Promise<string[]> {
  if (refs.length === 0) return [];
  const ids = new Set(
    (await s.store.list(caller.domain.id))
      .filter((r) => r.ownerId === null || r.ownerId === caller.user.id)
      .map((r) => r.id),
  );
  return refs.filter((ref) => {
    const m = /^mcp:([^:]+):/.exec(ref);
    return !m?.[1] || !ids.has(m[1]);
  });
}
