import type {
  Chat,
  ChatEditFrame,
  ChatParams,
  ChatRegenerateFrame,
  ChatSendFrame,
  ChatStopFrame,
  ChatSubscribeFrame,
  ServerFrame,
} from '@assistente/contracts';
import { type AppContext, Channels } from '../../context.ts';
import type { AuthInvalidateMessage } from '../../lib/caller.ts';
import { invalidField } from '../../lib/errors.ts';
import type { ChatCaller } from '../chats/index.ts';
import { type ExchangeChat, titleFrom } from '../chats/index.ts';
import { parseVisitorUid, VIRTUAL_ACCOUNT_CHANGED } from '../embedded/index.ts';
import { type AnswerKnowledge, knowledgeForAnswer } from '../knowledge/index.ts';
import type { ResolvedModel } from '../providers/index.ts';
import type { SantitoRow } from '../santitos/index.ts';
import { santitoNotAvailable } from '../santitos/index.ts';
import { alreadyGenerating, tooManyGenerations, tooManySends } from './errors.ts';
import { type Generation, type GenerationInput, GenerationRegistry, HEARTBEAT_MS } from './generation.ts';
import { AgentsHub } from './hub.ts';
import { type AgentLimits, createAgentLimits } from './limits.ts';
import { defaultModelWorkers, INTERRUPTED_MESSAGE, ModelWorkers } from './model-calls.ts';
import { systemPrompt } from './prompt.ts';
import { type AgentsStore, agentsStore } from './store.ts';

/** Bus channel of commands every replica obeys for the generations it runs. */
const CONTROL_CHANNEL = 'agents.control';

type ControlMessage = { op: 'stop' | 'snapshot'; userId: string; chatId: string };

/** Shallow equality of chat params (their values are scalars). */
function sameParams(a: ChatParams, b: ChatParams): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => x[k] === y[k]);
}

/**
 * Streaming answers untouched for this long died with their process (three missed heartbeats).
 * With the sweep's period, a surviving replica ends a crashed one's answers within 40 s.
 */
const STALE_AFTER_MS = 3 * HEARTBEAT_MS;
/** How often the agents module's `agents.stale-answers` job sweeps (its manifest, index.ts). */
export const SWEEP_EVERY_MS = 10_000;

/** Sends one frame to the socket that asked (errors, acks); everything else goes through the hub. */
export type Reply = (frame: ServerFrame) => void;

/**
 * The agents service: what each client frame does. Routes and sockets stay thin; every frame is
 * re-checked against the caller (the socket resolves it again from its token before each call).
 */
export function createAgentsService(ctx: AppContext) {
  const { chats, santitos, providers } = ctx.services;
  const store: AgentsStore = agentsStore(ctx.db);
  const hub = new AgentsHub(ctx.bus, ctx.log);
  const limits: AgentLimits = createAgentLimits(ctx);
  const models = new ModelWorkers({
    size: ctx.config.MODEL_WORKERS ?? defaultModelWorkers(),
    allowlist: ctx.config.PROVIDER_URL_ALLOWLIST,
    firstByteTimeoutMs: ctx.config.PROVIDER_FIRST_BYTE_TIMEOUT_MS,
    idleTimeoutMs: ctx.config.PROVIDER_IDLE_TIMEOUT_MS,
    log: ctx.log,
  });
  // Attachments are read by knowledge's document reader: the same bounds, the same per-domain turns.
  const registry = new GenerationRegistry(chats, store, hub, models, ctx.log, (domainId, type, data) =>
    ctx.services.knowledge.ingest.extractor.file(domainId, type, data),
  );

  /** When a stop was asked per user and chat: a stop racing the answer's start still stops it. */
  const stopsAsked = new Map<string, number>();
  const stopKey = (userId: string, chatId: string) => `${userId}\n${chatId}`;

  const unsubscribeControl = ctx.bus.subscribe(CONTROL_CHANNEL, (raw) => {
    const msg = raw as Partial<ControlMessage> | undefined;
    if (!msg || typeof msg.userId !== 'string' || typeof msg.chatId !== 'string') return;
    if (msg.op === 'stop') {
      const now = Date.now();
      stopsAsked.set(stopKey(msg.userId, msg.chatId), now);
      if (stopsAsked.size > 10_000) {
        for (const [k, at] of stopsAsked) if (now - at > 60_000) stopsAsked.delete(k);
      }
    }
    for (const gen of registry.inChat(msg.userId, msg.chatId)) {
      if (msg.op === 'stop') gen.stop();
      else if (msg.op === 'snapshot') {
        hub.publish(gen.userId, {
          type: 'message.snapshot',
          chatId: gen.chatId,
          message: { ...gen.message, content: gen.sentContent, status: 'streaming' },
        });
      }
    }
  });

  // A user deactivated (or whose organisation is) mid-answer stops spending tokens at once.
  const unsubscribeAuth = ctx.bus.subscribe(Channels.authInvalidate, (raw) => {
    const msg = (raw ?? {}) as AuthInvalidateMessage;
    const email = msg.email?.toLowerCase();
    const domain = msg.domain?.toLowerCase();
    const hit = registry
      .all()
      .filter(
        (g) =>
          msg.all || g.owner.uid === msg.uid || g.userId === email || (domain && g.owner.domain === domain),
      );
    if (hit.length === 0) return;
    // After the caller caches (subscribed earlier) have dropped the account's state.
    setImmediate(() => {
      for (const gen of hit) {
        ctx.services.callerStates.isActive(gen.owner.uid).then(
          (active) => {
            if (!active) gen.stop();
          },
          (err: unknown) => ctx.log.warn({ err }, 'agents: could not re-check an answer’s owner'),
        );
      }
    });
  });

  // A paused or deleted embed stops its visitors' answers running here: closing their sockets
  // (agents/routes.ts) alone leaves an answer already under way spending the domain's tokens.
  const unsubscribeEmbeds = ctx.bus.subscribe(VIRTUAL_ACCOUNT_CHANGED, (raw) => {
    const id = (raw as { virtualAccountId?: unknown } | undefined)?.virtualAccountId;
    if (typeof id !== 'string') return;
    const hit = registry.all().filter((g) => parseVisitorUid(g.owner.uid)?.virtualAccountId === id);
    if (hit.length === 0) return;
    // After the visitors' cache (subscribed earlier) has dropped the embed: a rename goes on.
    setImmediate(() => {
      ctx.services.visitors.usableEmbed(id).then(
        (usable) => {
          if (!usable) for (const gen of hit) gen.stop();
        },
        (err: unknown) => ctx.log.warn({ err, virtualAccountId: id }, 'agents: could not re-check an embed'),
      );
    });
  });

  // A process that alone writes its database (the embedded one) knows, when it starts, that every
  // answer still streaming died with the process before it.
  let sweptAtStart = !ctx.soleWriter;
  async function sweep(): Promise<void> {
    const before = sweptAtStart ? new Date(Date.now() - STALE_AFTER_MS) : new Date();
    sweptAtStart = true;
    const swept = await store.sweepStale(before, INTERRUPTED_MESSAGE);
    for (const m of swept) {
      if (registry.all().some((g) => g.messageId === m.messageId)) continue;
      hub.publish(m.userId, {
        type: 'message.done',
        chatId: m.chatId,
        messageId: m.messageId,
        status: 'error',
        finishReason: 'error',
        usage: null,
        error: { code: 'UNAVAILABLE', message: INTERRUPTED_MESSAGE },
      });
    }
  }

  /** Counts the send against the per-minute limit, or refuses it. */
  async function countSend(caller: ChatCaller): Promise<void> {
    if (!(await limits.allowSend(caller.user.id))) {
      throw tooManySends(limits.sendsPerMinute);
    }
  }

  /** Takes a generation slot, or refuses with TOO_MANY_GENERATIONS. */
  async function takeSlot(caller: ChatCaller): Promise<() => void> {
    const release = await limits.acquire(caller.user.id);
    if (!release) {
      throw tooManyGenerations(limits.maxConcurrent);
    }
    return release;
  }

  function assertIdle(caller: ChatCaller, chatId: string): void {
    if (registry.inChat(caller.user.id, chatId).length > 0) {
      throw alreadyGenerating();
    }
  }

  async function santitoOf(
    caller: ChatCaller,
    agentId: string | null | undefined,
  ): Promise<SantitoRow | undefined> {
    return agentId ? santitos.findUsable(caller, agentId) : undefined;
  }

  /**
   * The model: the chat's choice (MODEL_UNAVAILABLE once no provider offers it: the user can pick
   * another), else the santito's (the default once it is gone: users cannot edit the santito), else
   * the domain's default (NO_PROVIDER when nothing is configured).
   */
  function modelFor(
    caller: ChatCaller,
    params: ChatParams,
    santito: SantitoRow | undefined,
  ): Promise<ResolvedModel> {
    if (params.model) return providers.resolveModel(caller, params.model);
    return providers.resolveModel(caller, santito?.model, true);
  }

  /**
   * Checks the user's message and loads the branch it follows; the answer stores it (with the
   * answer's own row and what they do to the chat: `change`, one statement) while the model is
   * called, and announces the chat and the message once stored.
   */
  async function prepareQuestion(
    caller: ChatCaller,
    change: ExchangeChat,
    requestId: string | undefined,
    input: { content: string; parentId?: string | null; attachmentIds?: string[] },
  ): Promise<NonNullable<GenerationInput['pending']>> {
    const prepared = await chats.prepareUserMessage(
      caller,
      change.id,
      input,
      change.kind === 'create' ? 'new' : 'loaded',
    );
    return {
      message: prepared.message,
      branch: prepared.branch ?? [],
      commit: async (model) => {
        const { chat, question, answer } = await chats.commitExchange(prepared, model, change);
        if (change.kind === 'create') {
          hub.publish(caller.user.id, { type: 'chat.created', requestId, chat });
        } else if (change.params || change.title) {
          hub.publish(caller.user.id, { type: 'chat.updated', chat });
        }
        hub.publish(caller.user.id, {
          type: 'message.created',
          ...(requestId ? { requestId } : {}),
          chatId: chat.chatId,
          message: question,
        });
        return answer;
      },
    };
  }

  /** What answers in a chat: its santito, its params and the model they pick. */
  interface AnswerPlan {
    santito: SantitoRow | undefined;
    params: ChatParams;
    resolved: ResolvedModel;
  }

  /** The plan of a stored chat (regenerate, edit): its santito if still usable, its params. */
  async function planOf(caller: ChatCaller, chat: Chat): Promise<AnswerPlan> {
    const santito = await santitoOf(caller, chat.agentId);
    const params = chat.params ?? {};
    return { santito, params, resolved: await modelFor(caller, params, santito) };
  }

  /**
   * Starts the answer once everything it needs is checked. Only then is the user's generation slot
   * taken: a send refused by its checks never held one (several failing at once used to refuse a
   * valid send beside them). No await separates taking it from handing it to the generation, which
   * frees it when it ends (or fails to start), so sends racing each other still respect the limit.
   */
  async function answer(
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
    },
  ): Promise<Generation> {
    const { santito, params, resolved } = a.plan;
    const knowledge = santito?.knowledge.length
      ? await (a.knowledge ??
          knowledgeForAnswer(
            ctx,
            santito.domainId,
            santito.knowledge,
            a.pending?.message.content ??
              (await chats.getMessageForCaller(caller, a.chatId, a.parentId)).content,
          ))
      : undefined;
    const system = [systemPrompt(santito?.instructions, params), knowledge?.prompt]
      .filter(Boolean)
      .join('\n\n');
    const release = await takeSlot(caller);
    const gen = await registry.start({
      caller,
      chatId: a.chatId,
      parentId: a.parentId,
      ...(a.pending ? { pending: a.pending } : {}),
      ...(a.requestId ? { requestId: a.requestId } : {}),
      resolved,
      ...(system ? { system } : {}),
      ...(knowledge?.citations.length ? { citations: knowledge.citations } : {}),
      params,
      release,
    });
    // A stop that arrived while the answer was being set up (before it could be found) still counts.
    if ((stopsAsked.get(stopKey(caller.user.id, a.chatId)) ?? 0) >= a.since) gen.stop();
    return gen;
  }

  return {
    hub,
    registry,
    limits,
    models,
    /** Ends answers whose process died: the `agents.stale-answers` job (index.ts). */
    sweepStale: sweep,

    /** `chat.send`: the user message is committed and announced before the answer starts. */
    async send(caller: ChatCaller, frame: ChatSendFrame): Promise<void> {
      const since = Date.now();
      await countSend(caller);
      const chat = frame.chatId ? await chats.getChatForCaller(caller, frame.chatId) : undefined;
      if (chat) assertIdle(caller, chat.chatId);
      const agentId = chat ? chat.agentId : (frame.agentId ?? null);
      const santito = await santitoOf(caller, agentId);
      if (!chat && agentId && !santito) {
        throw santitoNotAvailable();
      }
      // The question's knowledge (an embeddings call, then retrieval) is found while the model is
      // resolved and the message prepared, not after: it was time added before the first token.
      const knowledge = santito?.knowledge.length
        ? knowledgeForAnswer(ctx, santito.domainId, santito.knowledge, frame.content)
        : undefined;
      // Awaited in `answer`; a send refused before then must not leave it unhandled.
      knowledge?.catch(() => {});
      const params = frame.params ?? chat?.params ?? {};
      // Before anything is stored: with no model, the send changes nothing.
      const resolved = await modelFor(caller, params, santito);
      // A new chat is stored with its first message, titled from it; an untitled one gets that
      // title, and new params, in the same statement.
      const title = chat?.title ? undefined : titleFrom(frame.content) || undefined;
      const change: ExchangeChat = chat
        ? {
            kind: 'touch',
            owner: caller,
            id: chat.chatId,
            ...(frame.params && !sameParams(frame.params, chat.params ?? {}) ? { params: frame.params } : {}),
            ...(title ? { title } : {}),
          }
        : chats.newChat(caller, { agentId, params: frame.params ?? {}, title: title ?? '' });
      const pending = await prepareQuestion(caller, change, frame.requestId, {
        content: frame.content,
        ...(frame.parentId !== undefined ? { parentId: frame.parentId } : {}),
        ...(frame.attachments ? { attachmentIds: frame.attachments } : {}),
      });
      await answer(caller, {
        chatId: change.id,
        parentId: pending.message.messageId,
        plan: { santito, params, resolved },
        requestId: frame.requestId,
        since,
        pending,
        ...(knowledge ? { knowledge } : {}),
      });
    },

    /** `chat.regenerate`: a new answer to the same question, a sibling of the old one (kept). */
    async regenerate(caller: ChatCaller, frame: ChatRegenerateFrame): Promise<void> {
      const since = Date.now();
      const chat = await chats.getChatForCaller(caller, frame.chatId);
      const target = await chats.getMessageForCaller(caller, frame.chatId, frame.messageId);
      const parentId = target.role === 'assistant' ? target.parentId : target.messageId;
      if (!parentId) throw invalidField('messageId', 'This answer has no question to answer again');
      assertIdle(caller, chat.chatId);
      await countSend(caller);
      await answer(caller, {
        chatId: chat.chatId,
        parentId,
        plan: await planOf(caller, chat),
        requestId: frame.requestId,
        since,
      });
    },

    /** `chat.edit`: a new user message beside the edited one (same parent), then its answer. */
    async edit(caller: ChatCaller, frame: ChatEditFrame): Promise<void> {
      const since = Date.now();
      const chat = await chats.getChatForCaller(caller, frame.chatId);
      const target = await chats.getMessageForCaller(caller, frame.chatId, frame.messageId);
      if (target.role !== 'user') throw invalidField('messageId', 'Only your own messages can be edited');
      assertIdle(caller, chat.chatId);
      await countSend(caller);
      const plan = await planOf(caller, chat);
      const pending = await prepareQuestion(
        caller,
        { kind: 'touch', owner: caller, id: chat.chatId },
        frame.requestId,
        {
          content: frame.content,
          parentId: target.parentId,
          attachmentIds: frame.attachments ?? (target.attachments ?? []).map((a) => a.attachmentId),
        },
      );
      await answer(caller, {
        chatId: chat.chatId,
        parentId: pending.message.messageId,
        plan,
        requestId: frame.requestId,
        since,
        pending,
      });
    },

    /** `chat.stop`: whichever replica runs the chat's answer stops it (kept as `stopped`). */
    async stop(caller: ChatCaller, frame: ChatStopFrame): Promise<void> {
      await chats.getChatForCaller(caller, frame.chatId);
      const msg: ControlMessage = { op: 'stop', userId: caller.user.id, chatId: frame.chatId };
      await ctx.bus.publish(CONTROL_CHANNEL, msg);
    },

    /** `chat.subscribe`: snapshots of the chat's answers in progress, then `chat.subscribed`. */
    async subscribe(caller: ChatCaller, frame: ChatSubscribeFrame, reply: Reply): Promise<void> {
      await chats.getChatForCaller(caller, frame.chatId);
      const msg: ControlMessage = { op: 'snapshot', userId: caller.user.id, chatId: frame.chatId };
      await ctx.bus.publish(CONTROL_CHANNEL, msg);
      const streaming = await store.streamingIds(frame.chatId);
      reply({
        type: 'chat.subscribed',
        ...(frame.requestId ? { requestId: frame.requestId } : {}),
        chatId: frame.chatId,
        streaming,
      });
    },

    /** Stops the generations of this process (stored as interrupted) and the background work. */
    async close(): Promise<void> {
      unsubscribeControl();
      unsubscribeAuth();
      unsubscribeEmbeds();
      await registry.shutdown();
      await models.close();
      hub.close();
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
