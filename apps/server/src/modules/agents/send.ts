import {
  type Chat,
  type ChatEditFrame,
  type ChatParams,
  type ChatRegenerateFrame,
  type ChatSendFrame,
  type Message,
  type MessagePart,
  SantitoLimits,
  type ToolApproveFrame,
  type ToolPart,
} from '@assistente/contracts';
import { AppError, invalidField } from '../../lib/errors.ts';
import type { ChatCaller } from '../chats/index.ts';
import { type ExchangeChat, titleFrom } from '../chats/index.ts';
import { type AnswerKnowledge, knowledgeForAnswer } from '../knowledge/index.ts';
import type { AnswerMemory } from '../memory/index.ts';
import type { ResolvedModel } from '../providers/index.ts';
import type { SantitoRow } from '../santitos/index.ts';
import { santitoNotAvailable } from '../santitos/index.ts';
import { alreadyGenerating, tooManyGenerations, tooManySends } from './errors.ts';
import type { Generation, GenerationInput } from './generation.ts';
import { systemPrompt } from './prompt.ts';
import { type AgentsState, stopKey } from './state.ts';
import { DENIED_OUTPUT, type ToolRuntime } from './tool-steps.ts';

/*
 * What `chat.send`, `chat.regenerate` and `chat.edit` do (docs/ARCHITECTURE.md#chat-message-data-path).
 * Every frame is re-checked against the caller (the socket resolves it again from its token first).
 */

/** Shallow equality of chat params (their values are scalars). */
function sameParams(a: ChatParams, b: ChatParams): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => x[k] === y[k]);
}

/** Counts the send against the per-minute limit, or refuses it. */
async function countSend(s: AgentsState, caller: ChatCaller): Promise<void> {
  if (!(await s.limits.allowSend(caller.user.id))) {
    throw tooManySends(s.limits.sendsPerMinute);
  }
}

/**
 * Whose the answer's model call is, for the ledger (docs/ARCHITECTURE.md#usage-prices-and-budgets):
 * a visitor's is `embedded`, an editor session's (the VS Code extension signs in with its own
 * session, of kind `editor`) `codeassist`, anything else `chat`.
 */
/** Who an answer's calls are charged to (the ledger's columns but its source and model). */
function payerOf(caller: ChatCaller, santito: SantitoRow | undefined) {
  return {
    domainId: caller.domain.id,
    departmentId: caller.user.departmentId || null,
    userId: caller.user.id,
    santitoId: santito?.id ?? null,
    ...(caller.kind === 'visitor' ? { virtualAccountId: caller.virtualAccount.id } : {}),
  };
}

async function ledgerEntry(
  s: AgentsState,
  caller: ChatCaller,
  santito: SantitoRow | undefined,
): Promise<GenerationInput['ledger']> {
  const base = payerOf(caller, santito);
  if (caller.kind === 'visitor') return { ...base, source: 'embedded' };
  return { ...base, source: (await isEditorSession(s, caller)) ? 'codeassist' : 'chat' };
}

/** Most sessions a replica remembers the kind of; past it, it forgets them all and reads again. */
const SESSION_KINDS_KEPT = 10_000;

/**
 * Whether the caller's session is the editor extension's, read once per session (a session's kind
 * never changes), not once per answer. It only names the ledger's source: a database that fails
 * this read (a failover) must not fail the send, which is then counted as chat, unremembered.
 */
async function isEditorSession(
  s: AgentsState,
  caller: Extract<ChatCaller, { kind: 'user' }>,
): Promise<boolean> {
  const known = s.editorSessions.get(caller.sessionId);
  if (known !== undefined) return known;
  const sessions = await s.ctx.identity.listSessions(caller.uid).catch(() => undefined);
  if (!sessions) return false;
  const editor = sessions.some((x) => x.id === caller.sessionId && x.kind === 'editor');
  if (s.editorSessions.size >= SESSION_KINDS_KEPT) s.editorSessions.clear();
  s.editorSessions.set(caller.sessionId, editor);
  return editor;
}

/**
 * What the person wrote, through their domain's PII filter (docs/ARCHITECTURE.md#pii-filter):
 * before the model, the knowledge search and the database see it. Block mode refuses here, before
 * anything is stored.
 */
async function screened(s: AgentsState, caller: ChatCaller, content: string): Promise<string> {
  return s.ctx.services.pii.screen(caller.domain.id, content);
}

/** Takes a generation slot, or refuses with TOO_MANY_GENERATIONS. */
async function takeSlot(s: AgentsState, caller: ChatCaller): Promise<() => void> {
  const release = await s.limits.acquire(caller.user.id);
  if (!release) {
    throw tooManyGenerations(s.limits.maxConcurrent);
  }
  return release;
}

function assertIdle(s: AgentsState, caller: ChatCaller, chatId: string): void {
  if (s.registry.inChat(caller.user.id, chatId).length > 0) {
    throw alreadyGenerating();
  }
}

async function santitoOf(
  s: AgentsState,
  caller: ChatCaller,
  agentId: string | null | undefined,
): Promise<SantitoRow | undefined> {
  return agentId ? s.santitos.findUsable(caller, agentId) : undefined;
}

/**
 * The model: the chat's choice (MODEL_UNAVAILABLE once no provider offers it: the user can pick
 * another), else the santito's (the default once it is gone: users cannot edit the santito), else
 * the domain's default (NO_PROVIDER when nothing is configured).
 */
function modelFor(
  s: AgentsState,
  caller: ChatCaller,
  params: ChatParams,
  santito: SantitoRow | undefined,
): Promise<ResolvedModel> {
  if (params.model) return s.providers.resolveModel(caller, params.model);
  return s.providers.resolveModel(caller, santito?.model, true);
}

/**
 * Checks the user's message and loads the branch it follows; the answer stores it (with the
 * answer's own row and what they do to the chat: `change`, one statement) while the model is
 * called, and announces the chat and the message once stored.
 */
async function prepareQuestion(
  s: AgentsState,
  caller: ChatCaller,
  change: ExchangeChat,
  requestId: string | undefined,
  input: { content: string; parentId?: string | null; attachmentIds?: string[] },
): Promise<NonNullable<GenerationInput['pending']>> {
  const prepared = await s.chats.prepareUserMessage(
    caller,
    change.id,
    input,
    change.kind === 'create' ? 'new' : 'loaded',
  );
  return {
    message: prepared.message,
    branch: prepared.branch ?? [],
    commit: async (model) => {
      const { chat, question, answer } = await s.chats.commitExchange(prepared, model, change);
      if (change.kind === 'create') {
        s.hub.publish(caller.user.id, { type: 'chat.created', requestId, chat });
      } else if (change.params || change.title) {
        s.hub.publish(caller.user.id, { type: 'chat.updated', chat });
      }
      s.hub.publish(caller.user.id, {
        type: 'message.created',
        ...(requestId ? { requestId } : {}),
        chatId: chat.chatId,
        message: question,
      });
      return answer;
    },
  };
}

/**
 * The tools an answer in this chat may call: its santito's, of the servers the caller sees, less
 * what the domain denies; undefined when there are none (the answer is then one model call).
 */
/**
 * Whether the question's knowledge is found before the model answers: for a santito with sources,
 * unless it has `knowledge_search` and looks in them itself, when it sees fit.
 */
const readsKnowledgeFirst = (santito: SantitoRow | undefined): santito is SantitoRow =>
  !!santito?.knowledge.length && !santito.tools.includes('builtin:knowledge_search');

async function toolsFor(
  s: AgentsState,
  caller: ChatCaller,
  chatId: string,
  santito: SantitoRow | undefined,
  memory: Promise<AnswerMemory>,
): Promise<ToolRuntime | undefined> {
  // A chat without a santito gets the domain's default tools; with memory on, any chat `remember`.
  const { remember } = await memory;
  if (santito && santito.tools.length === 0 && !remember) return undefined;
  const service = s.ctx.services.tools;
  const tools = await service.answerTools(caller, santito ? santito.tools : 'defaults', {
    domainId: santito?.domainId ?? caller.domain.id,
    knowledge: santito?.knowledge ?? [],
    userId: caller.user.id,
    chatId,
    files: s.chats.toolFiles(caller, chatId),
    ledger: payerOf(caller, santito),
    // Only `forAnswer` decides this, and only ever for a signed-in person's own chat.
    ...(remember ? { remember: { userId: caller.user.id, domainId: caller.domain.id } } : {}),
  });
  if (tools.length === 0) return undefined;
  return {
    tools,
    allowed: memo(async () => new Set(await s.chats.allowedTools(chatId))),
    askIsDeny: caller.kind === 'visitor',
    run: (tool, input, signal, cited) => service.runTool(tool, input, signal, cited),
    audit: (call) => service.auditCall(caller, { ...call, chatId }),
  };
}

/** `load` once, on first use. */
function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load();
    return value;
  };
}

/** What answers in a chat: its santito, its params and the model they pick. */
interface AnswerPlan {
  santito: SantitoRow | undefined;
  params: ChatParams;
  resolved: ResolvedModel;
}

/** The plan of a stored chat (regenerate, edit): its santito if still usable, its params. */
async function planOf(s: AgentsState, caller: ChatCaller, chat: Chat): Promise<AnswerPlan> {
  const santito = await santitoOf(s, caller, chat.agentId);
  const params = chat.params ?? {};
  return { santito, params, resolved: await modelFor(s, caller, params, santito) };
}

/**
 * Starts the answer once the send's checks passed. Only then is the user's generation slot taken: a
 * send refused by its checks never held one (several failing at once used to refuse a valid send
 * beside them). With the slot held, the question and its answer's row are stored while the answer's
 * reads (ledger, tools, memories, knowledge) run; one of those failing frees the slot and ends the
 * stored answer with why, and the generation frees it when it ends, so sends racing each other
 * still respect the limit.
 */
async function answer(
  s: AgentsState,
  caller: ChatCaller,
  a: {
    chatId: string;
    /** The user message to answer. */
    parentId: string;
    plan: AnswerPlan;
    requestId: string | undefined;
    /** When the frame arrived: a stop asked since then ends this answer. */
    since: number;
    pending?: GenerationInput['pending'];
    /** The santito's knowledge for the question, when the caller started finding it already. */
    knowledge?: Promise<AnswerKnowledge>;
    /** Takes a paused answer up again, once the slot is held: the answer continues that message. */
    resume?: () => Promise<Message>;
  },
): Promise<Generation> {
  const { santito, params, resolved } = a.plan;
  // The knowledge is found beside the rest of the answer's set-up (ledger, tools, memories), not
  // before it: the first token waits for the longest of them, not for their sum.
  const found = readsKnowledgeFirst(santito)
    ? (a.knowledge ??
      (async () =>
        knowledgeForAnswer(
          s.ctx,
          santito.domainId,
          santito.knowledge,
          a.pending?.message.content ??
            (await s.chats.getMessageForCaller(caller, a.chatId, a.parentId)).content,
        ))())
    : undefined;
  // Awaited below with the rest; one of the others failing first must not leave it unhandled.
  found?.catch(() => {});
  // The person's own memories (docs/ARCHITECTURE.md#memory): never a visitor's or another's. Read
  // beside the tools' policy, not before it.
  const remembered = s.ctx.services.memory.forAnswer(caller);
  const reads = Promise.all([
    ledgerEntry(s, caller, santito),
    toolsFor(s, caller, a.chatId, santito, remembered),
    remembered,
    s.ctx.services.pii.filterFor(caller.domain.id),
    found,
  ]);
  // Awaited below, once the slot is held; a refused slot must not leave it unhandled.
  reads.catch(() => {});
  const release = await takeSlot(s, caller);
  // The question and its answer's row are stored while the answer's reads run, not after them.
  const committing = a.pending?.commit(resolved.modelId);
  committing?.catch(() => {});
  let resumed: Message | undefined;
  let read: Awaited<typeof reads>;
  try {
    read = await reads;
    resumed = await a.resume?.();
  } catch (err) {
    release();
    await s.registry.endUnstarted(resumed ?? committing, err);
    throw err;
  }
  const [ledger, tools, memory, pii, knowledge] = read;
  const system = [systemPrompt(santito?.instructions, params), memory.instructions, knowledge?.prompt]
    .filter(Boolean)
    .join('\n\n');
  const gen = await s.registry.start({
    ledger,
    caller,
    chatId: a.chatId,
    parentId: a.parentId,
    ...(a.pending && committing ? { pending: { ...a.pending, commit: () => committing } } : {}),
    ...(a.requestId ? { requestId: a.requestId } : {}),
    resolved,
    ...(system ? { system } : {}),
    ...(knowledge?.citations.length ? { citations: knowledge.citations } : {}),
    ...(memory.used > 0 ? { usedMemory: true } : {}),
    params,
    pii,
    release,
    ...(tools ? { tools, maxSteps: santito?.maxSteps ?? SantitoLimits.defaultMaxSteps } : {}),
    ...(resumed ? { resume: resumed } : {}),
  });
  // A stop that arrived while the answer was being set up (before it could be found) still counts.
  if ((s.stopsAsked.get(stopKey(caller.user.id, a.chatId)) ?? 0) >= a.since) gen.stop();
  return gen;
}

/**
 * `chat.send`: the user message is committed and announced before the answer starts. Reads that do
 * not depend on each other run together (docs/ARCHITECTURE.md#chat-message-data-path): each is a
 * database round trip before the model is called.
 */
export async function send(s: AgentsState, caller: ChatCaller, frame: ChatSendFrame): Promise<void> {
  const since = Date.now();
  await countSend(s, caller);
  const [content, chat] = await Promise.all([
    screened(s, caller, frame.content),
    frame.chatId ? s.chats.getChatForCaller(caller, frame.chatId) : undefined,
  ]);
  if (chat) assertIdle(s, caller, chat.chatId);
  const agentId = chat ? chat.agentId : (frame.agentId ?? null);
  const params = frame.params ?? chat?.params ?? {};
  // A new chat is stored with its first message, titled from it; an untitled one gets that
  // title, and new params, in the same statement.
  const title = chat?.title ? undefined : titleFrom(content) || undefined;
  const change: ExchangeChat = chat
    ? {
        kind: 'touch',
        owner: caller,
        id: chat.chatId,
        ...(frame.params && !sameParams(frame.params, chat.params ?? {}) ? { params: frame.params } : {}),
        ...(title ? { title } : {}),
      }
    : s.chats.newChat(caller, { agentId, params: frame.params ?? {}, title: title ?? '' });
  // The santito and the model it picks, beside the question's branch (which needs neither).
  const planned = (async () => {
    const santito = await santitoOf(s, caller, agentId);
    if (!chat && agentId && !santito) {
      throw santitoNotAvailable();
    }
    // The question's knowledge (an embeddings call, then retrieval) is found while the model is
    // resolved and the message prepared, not after: it was time added before the first token.
    const knowledge = readsKnowledgeFirst(santito)
      ? knowledgeForAnswer(s.ctx, santito.domainId, santito.knowledge, content)
      : undefined;
    // Awaited in `answer`; a send refused before then must not leave it unhandled.
    knowledge?.catch(() => {});
    // Before anything is stored: with no model, the send changes nothing.
    return { santito, knowledge, resolved: await modelFor(s, caller, params, santito) };
  })();
  const [{ santito, knowledge, resolved }, pending] = await Promise.all([
    planned,
    prepareQuestion(s, caller, change, frame.requestId, {
      content,
      ...(frame.parentId !== undefined ? { parentId: frame.parentId } : {}),
      ...(frame.attachments ? { attachmentIds: frame.attachments } : {}),
    }),
  ]);
  await answer(s, caller, {
    chatId: change.id,
    parentId: pending.message.messageId,
    plan: { santito, params, resolved },
    requestId: frame.requestId,
    since,
    pending,
    ...(knowledge ? { knowledge } : {}),
  });
}

/** `chat.regenerate`: a new answer to the same question, a sibling of the old one (kept). */
export async function regenerate(
  s: AgentsState,
  caller: ChatCaller,
  frame: ChatRegenerateFrame,
): Promise<void> {
  const since = Date.now();
  const chat = await s.chats.getChatForCaller(caller, frame.chatId);
  const target = await s.chats.getMessageForCaller(caller, frame.chatId, frame.messageId);
  const parentId = target.role === 'assistant' ? target.parentId : target.messageId;
  if (!parentId) throw invalidField('messageId', 'This answer has no question to answer again');
  assertIdle(s, caller, chat.chatId);
  await countSend(s, caller);
  await answer(s, caller, {
    chatId: chat.chatId,
    parentId,
    plan: await planOf(s, caller, chat),
    requestId: frame.requestId,
    since,
  });
}

/** `chat.edit`: a new user message beside the edited one (same parent), then its answer. */
export async function edit(s: AgentsState, caller: ChatCaller, frame: ChatEditFrame): Promise<void> {
  const since = Date.now();
  const chat = await s.chats.getChatForCaller(caller, frame.chatId);
  const target = await s.chats.getMessageForCaller(caller, frame.chatId, frame.messageId);
  if (target.role !== 'user') throw invalidField('messageId', 'Only your own messages can be edited');
  assertIdle(s, caller, chat.chatId);
  await countSend(s, caller);
  const content = await screened(s, caller, frame.content);
  const plan = await planOf(s, caller, chat);
  const pending = await prepareQuestion(
    s,
    caller,
    { kind: 'touch', owner: caller, id: chat.chatId },
    frame.requestId,
    {
      content,
      parentId: target.parentId,
      attachmentIds: frame.attachments ?? (target.attachments ?? []).map((a) => a.attachmentId),
    },
  );
  await answer(s, caller, {
    chatId: chat.chatId,
    parentId: pending.message.messageId,
    plan,
    requestId: frame.requestId,
    since,
    pending,
  });
}

const isAwaiting = (p: MessagePart, toolCallId?: string) =>
  p.type === 'tool' &&
  p.status === 'awaiting_approval' &&
  (toolCallId === undefined || p.toolCallId === toolCallId);

/**
 * `tool.approve`: the person allows or denies a call their paused answer waits on (any replica:
 * the answer is stored). With every call of the step decided, the answer goes on where it paused;
 * "allow for this chat" also allows that tool's later calls, and its other calls waiting now.
 */
export async function approve(s: AgentsState, caller: ChatCaller, frame: ToolApproveFrame): Promise<void> {
  const since = Date.now();
  const chat = await s.chats.getChatForCaller(caller, frame.chatId);
  const paused = await s.chats.awaitingInChat(chat.chatId);
  const message = paused.find((m) => m.parts?.some((p) => isAwaiting(p, frame.toolCallId)));
  const target = message?.parts?.find((p) => isAwaiting(p, frame.toolCallId));
  if (!message?.parentId || target?.type !== 'tool') {
    throw invalidField('toolCallId', 'No tool call of this chat waits for approval');
  }
  const allow = frame.decision === 'allow';
  const remembered = allow && frame.remember === 'chat';
  if (remembered) await s.chats.allowToolInChat(chat.chatId, target.tool);
  const decides = (p: MessagePart): p is ToolPart =>
    isAwaiting(p) &&
    p.type === 'tool' &&
    (p.toolCallId === frame.toolCallId || (remembered && p.tool === target.tool));
  const decide = (p: ToolPart): ToolPart =>
    allow ? { ...p, status: 'running' } : { ...p, status: 'denied', output: DENIED_OUTPUT };
  const parts = (message.parts ?? []).map((p) => (decides(p) ? decide(p) : p));
  const decided = (message.parts ?? []).filter(decides).map(decide);
  const tools = s.ctx.services.tools;
  for (const p of decided) {
    if (p.status === 'denied') {
      await tools.auditCall(caller, {
        ref: p.tool,
        input: p.input,
        decision: 'denied',
        status: 'denied',
        chatId: chat.chatId,
      });
    }
  }
  if (parts.some((p) => isAwaiting(p))) {
    // Other calls of the step still wait: keep this decision, tell the person's other tabs.
    if (!(await s.chats.setAwaitingParts(message.messageId, parts))) throw alreadyDecided();
    for (const p of decided) {
      s.hub.publish(caller.user.id, {
        type: 'tool.result',
        chatId: chat.chatId,
        messageId: message.messageId,
        toolCallId: p.toolCallId,
        status: p.status,
        ...(p.output !== undefined ? { output: p.output } : {}),
      });
    }
    return;
  }
  assertIdle(s, caller, chat.chatId);
  await answer(s, caller, {
    chatId: chat.chatId,
    parentId: message.parentId,
    plan: await planOf(s, caller, chat),
    requestId: frame.requestId,
    since,
    resume: async () => {
      const resumed = await s.chats.resumeAnswer(message.messageId, parts);
      if (!resumed) throw alreadyDecided();
      return resumed;
    },
  });
}

const alreadyDecided = () => new AppError('CONFLICT', 'This tool call was already decided');
