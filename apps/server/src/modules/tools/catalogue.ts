import { createHash } from 'node:crypto';
import {
  BUILTIN_READ_ONLY,
  type BuiltinToolInfo,
  type BuiltinToolName,
  BuiltinToolNames,
  type Citation,
  type ToolDecision,
  type ToolInfo,
  type ToolList,
} from '@assistente/contracts';
import type { UserCaller } from '../../lib/caller.ts';
import { recordAudit } from '../audit/index.ts';
import type { ChatCaller } from '../chats/index.ts';
import {
  type BuiltinContext,
  builtinNameOf,
  builtinOffers,
  runBuiltin,
  unavailableReason,
} from './builtins/index.ts';
import type { McpTarget, ToolOutput } from './connections.ts';
import { StoredOAuth } from './oauth.ts';
import { headersOf } from './servers.ts';
import type { ToolsState } from './state.ts';
import type { McpServerRow } from './store.ts';
import { decide } from './tool-policy.ts';

interface AnswerToolBase {
  /** `mcp:{serverId}:{name}` or `builtin:{name}`: what policy rules, santitos and message parts name. */
  ref: string;
  /** The function name the model sees (letters, digits, `_`, `-`; unique within the answer). */
  modelName: string;
  /** What people read: the server's name and the tool's title (a built-in's, in English). */
  title: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  decision: ToolDecision;
}

/** A tool of an MCP server: where the call goes. */
export interface McpAnswerTool extends AnswerToolBase {
  kind: 'mcp';
  serverId: string;
  name: string;
  target: McpTarget;
  /** The connection's key: one per user and server version. */
  connection: string;
}

/** One of Assistente's own tools (docs/ARCHITECTURE.md#built-in-tools). */
export interface BuiltinAnswerTool extends AnswerToolBase {
  kind: 'builtin';
  name: BuiltinToolName;
  context: BuiltinContext;
}

/** A tool an answer may call: what the model is offered, and where the call goes. */
export type AnswerTool = McpAnswerTool | BuiltinAnswerTool;

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
  const [servers, policy] = await Promise.all([visibleServers(s, caller), s.policies.get(caller.domain.id)]);
  return { servers, policy };
}

/** The enabled servers of the caller's domain whose tools they may use. */
async function visibleServers(s: ToolsState, caller: ChatCaller | UserCaller): Promise<McpServerRow[]> {
  return (await s.store.list(caller.domain.id)).filter((r) => r.enabled && visibleTo(r, caller));
}

const refMatches = (refs: readonly string[], serverId: string, name: string) =>
  refs.includes(`mcp:${serverId}:*`) || refs.includes(`mcp:${serverId}:${name}`);

const modelNameOf = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 56) || 'tool';

/**
 * The tools an answer may call: the built-ins and the MCP tools `refs` name (of servers the caller
 * sees), less what the domain's policy denies (the model is never offered them). Names the model
 * sees are the tools' own, made unique with the server's id when two offer the same name.
 */
export async function answerTools(
  s: ToolsState,
  caller: ChatCaller,
  asked: readonly string[] | 'defaults',
  context: BuiltinContext,
): Promise<AnswerTool[]> {
  // `remember` is offered with memory, whatever else the answer has (docs/ARCHITECTURE.md#memory).
  const remember = !!context.remember;
  if (asked !== 'defaults' && asked.length === 0 && !remember) return [];
  // Every chat without a santito comes here: with no default tools, the policy row is all it reads.
  const policy = await s.policies.get(caller.domain.id);
  const refs = asked === 'defaults' ? policy.defaultTools : asked;
  if (refs.length === 0 && !remember) return [];
  const servers = refs.some((r) => r.startsWith('mcp:')) ? await visibleServers(s, caller) : [];
  const images = refs.includes('builtin:generate_image') ? await hasImageModel(s, context.domainId) : false;
  const tools: AnswerTool[] = builtinOffers(s, refs, policy, { ...context, images }).map((b) => ({
    kind: 'builtin',
    ref: b.ref,
    modelName: b.name,
    title: b.title,
    description: b.description,
    inputSchema: b.inputSchema,
    decision: b.decision,
    name: b.name,
    context: { ...context, images },
  }));
  const taken = new Set<string>(tools.map((t) => t.modelName));
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
        kind: 'mcp',
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
 * Runs one call: a built-in here, an MCP tool on its server; within TOOL_TIMEOUT_MS, and aborting
 * `signal` (Stop) cancels it. `cited` are the answer's sources so far (a built-in numbers what
 * it finds after them). Throws when an MCP call could not be made or timed out.
 */
export function runTool(
  s: ToolsState,
  tool: AnswerTool,
  input: Record<string, unknown>,
  signal: AbortSignal,
  cited: readonly Citation[],
): Promise<ToolOutput> {
  const timeoutMs = s.ctx.config.TOOL_TIMEOUT_MS;
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  if (tool.kind === 'builtin') {
    const policy = () => s.policies.get(tool.context.domainId);
    return runBuiltin(s, tool.name, tool.context, input, bounded, cited, policy);
  }
  return s.connections.call(tool.connection, tool.target, tool.name, input, { signal: bounded, timeoutMs });
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

/** Whether a provider of the domain offers an image model; a provider that cannot be listed offers none. */
async function hasImageModel(s: ToolsState, domainId: string): Promise<boolean> {
  try {
    return !!(await s.ctx.services.providers.imageModel(domainId));
  } catch (err) {
    s.ctx.log.warn({ err, domainId }, 'tools: finding an image model failed');
    return false;
  }
}

/** GET /api/v1/agent/tools: the tools of the servers the caller sees, with what the policy decides. */
export async function listTools(s: ToolsState, caller: UserCaller): Promise<ToolList> {
  const [{ servers, policy }, images] = await Promise.all([
    usableServers(s, caller),
    hasImageModel(s, caller.domain.id),
  ]);
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
  // Without a Code Interpreter API the instance has no code_interpreter to offer at all; `remember`
  // is never picked for a santito: memory offers it (docs/ARCHITECTURE.md#memory).
  const offered = BuiltinToolNames.filter(
    (n) => n !== 'remember' && (n !== 'code_interpreter' || s.ctx.config.CODE_INTERPRETER_URL),
  );
  const builtins: BuiltinToolInfo[] = offered.map((name) => {
    const ref = `builtin:${name}`;
    const why = unavailableReason(s, name, policy, { images });
    return {
      ref,
      name,
      readOnly: BUILTIN_READ_ONLY[name],
      decision: decide(policy.rules, ref, BUILTIN_READ_ONLY[name]),
      unavailable: why === 'not_configured' ? why : null,
    };
  });
  return { tools, builtins, userServers: policy.userServers };
}

/**
 * The references that name neither a built-in nor a server the caller sees (their domain's, or
 * their own private ones).
 */
export async function unknownRefs(
  s: ToolsState,
  caller: UserCaller,
  refs: readonly string[],
): Promise<string[]> {
  const rest = refs.filter((ref) => !builtinNameOf(ref));
  if (rest.length === 0) return [];
  const ids = new Set(
    (await s.store.list(caller.domain.id))
      .filter((r) => r.ownerId === null || r.ownerId === caller.user.id)
      .map((r) => r.id),
  );
  return rest.filter((ref) => {
    const m = /^mcp:([^:]+):/.exec(ref);
    return !m?.[1] || !ids.has(m[1]);
  });
}
