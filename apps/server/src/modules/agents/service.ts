import type {
  Chat,
  ChatEditFrame,
  ChatParams,
  ChatRegenerateFrame,
  ChatSendFrame,
  ChatStopFrame,
  ChatSubscribeFrame,
  ServerFrame,
  WsErrorCode,
} from '@assistente/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { Caller } from '../../plugins/auth.ts';
import { type ChatsService, chatsService } from '../chats/index.ts';
import { type ProvidersService, providersService, type ResolvedModel } from '../providers/index.ts';
import { type SantitoRow, type SantitosService, santitosService } from '../santitos/index.ts';
import {
  type Generation,
  type GenerationInput,
  GenerationRegistry,
  HEARTBEAT_MS,
  INTERRUPTED_MESSAGE,
} from './generation.ts';
import { AgentsHub } from './hub.ts';
import { type AgentLimits, createAgentLimits } from './limits.ts';
import { systemPrompt } from './prompt.ts';
import { type AgentsStore, agentsStore } from './store.ts';

/** Bus channel of commands every replica obeys for the generations it runs. */
export const CONTROL_CHANNEL = 'agents.control';

type ControlMessage = { op: 'stop' | 'snapshot'; userId: string; chatId: string };

/** An error meant for an `error` frame, with one of the websocket's own codes. */
export class WsError extends Error {
  constructor(
    readonly code: WsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Shallow equality of chat params (their values are scalars). */
function sameParams(a: ChatParams, b: ChatParams): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((k) => x[k] === y[k]);
}

/** Streaming answers untouched for this long died with their process. */
const STALE_AFTER_MS = 4 * HEARTBEAT_MS;
const SWEEP_EVERY_MS = 60_000;

/** Sends one frame to the socket that asked (errors, acks); everything else goes through the hub. */
export type Reply = (frame: ServerFrame) => void;

/**
 * The agents service: what each client frame does. Routes and sockets stay thin; every frame is
 * re-checked against the caller (the socket resolves it again from its token before each call).
 */
export function createAgentsService(ctx: AppContext) {
  const chats: ChatsService = chatsService(ctx);
  const santitos: SantitosService = santitosService(ctx);
  const providers: ProvidersService = providersService(ctx);
  const store: AgentsStore = agentsStore(ctx.db);
  const hub = new AgentsHub(ctx.bus, ctx.log);
  const limits: AgentLimits = createAgentLimits(ctx);
  const registry = new GenerationRegistry(chats, store, hub, ctx.log);

  /** Work left running after a frame's answer (titles), awaited on shutdown. */
  const background = new Set<Promise<void>>();

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

  async function sweep(): Promise<void> {
    try {
      const swept = await store.sweepStale(new Date(Date.now() - STALE_AFTER_MS), INTERRUPTED_MESSAGE);
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
    } catch (err) {
      ctx.log.warn({ err }, 'agents: stale answer sweep failed');
    }
  }
  const sweeper = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  sweeper.unref();

  /** Counts the send and takes a generation slot, or refuses with the matching error. */
  async function admit(caller: Caller): Promise<() => void> {
    if (!(await limits.allowSend(caller.user.id))) {
      throw new WsError(
        'RATE_LIMITED',
        `You can send at most ${limits.sendsPerMinute} messages a minute; wait a moment.`,
      );
    }
    const release = limits.acquire(caller.user.id);
    if (!release) {
      throw new WsError(
        'TOO_MANY_GENERATIONS',
        `At most ${limits.maxConcurrent} answers can be generated at once; wait for one to finish or stop it.`,
      );
    }
    return release;
  }

  function assertIdle(caller: Caller, chatId: string): void {
    if (registry.inChat(caller.user.id, chatId).length > 0) {
      throw new AppError('CONFLICT', 'An answer is already being generated in this chat; stop it first.');
    }
  }

  async function santitoOf(
    caller: Caller,
    agentId: string | null | undefined,
  ): Promise<SantitoRow | undefined> {
    return agentId ? santitos.findUsable(caller, agentId) : undefined;
  }

  /** The model: the chat's choice, else the santito's, else the domain's default (NO_PROVIDER when none). */
  function modelFor(
    caller: Caller,
    params: ChatParams,
    santito: SantitoRow | undefined,
  ): Promise<ResolvedModel> {
    return providers.resolveModel(caller, params.model ?? santito?.model ?? undefined);
  }

  /** Titles an untitled chat from its first message and tells the user's sockets. */
  async function titleIfNew(caller: Caller, chat: Chat, text: string): Promise<void> {
    if (chat.title) return;
    try {
      if (await chats.autoTitle(chat.chatId, text)) {
        hub.publish(caller.user.id, {
          type: 'chat.updated',
          chat: await chats.getChatForCaller(caller, chat.chatId),
        });
      }
    } catch (err) {
      ctx.log.warn({ err, chatId: chat.chatId }, 'agents: could not title a chat');
    }
  }

  /**
   * Checks the user's message and loads the branch it follows; the answer stores it (with the
   * answer's own row, one statement) while the model is called, and announces it once stored.
   */
  async function prepareQuestion(
    caller: Caller,
    chat: Chat,
    requestId: string | undefined,
    input: { content: string; parentId?: string | null; attachmentIds?: string[] },
  ): Promise<NonNullable<GenerationInput['pending']>> {
    const prepared = await chats.prepareUserMessage(caller, chat.chatId, input, {
      chatChecked: true,
      withBranch: true,
    });
    return {
      message: prepared.message,
      branch: prepared.branch ?? [],
      commit: async (model) => {
        const { question, answer } = await chats.commitExchange(caller, prepared, model);
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

  /** Starts the answer; hands the slot to the generation (freed here only if that fails). */
  async function answer(
    caller: Caller,
    chat: Chat,
    parentId: string,
    params: ChatParams,
    santito: SantitoRow | undefined,
    resolved: ResolvedModel,
    release: () => void,
    requestId: string | undefined,
    /** When the frame arrived: a stop asked since then ends this answer. */
    since: number,
    pending?: GenerationInput['pending'],
  ): Promise<Generation> {
    const system = systemPrompt(santito?.instructions, params);
    const gen = await registry.start({
      caller,
      chatId: chat.chatId,
      parentId,
      ...(pending ? { pending } : {}),
      ...(requestId ? { requestId } : {}),
      resolved,
      ...(system ? { system } : {}),
      params,
      release,
    });
    // A stop that arrived while the answer was being set up (before it could be found) still counts.
    if ((stopsAsked.get(stopKey(caller.user.id, chat.chatId)) ?? 0) >= since) gen.stop();
    return gen;
  }

  return {
    hub,
    registry,
    limits,

    /** `chat.send`: the user message is committed and announced before the answer starts. */
    async send(caller: Caller, frame: ChatSendFrame): Promise<void> {
      const since = Date.now();
      const release = await admit(caller);
      let handedOver = false;
      try {
        let chat = frame.chatId ? await chats.getChatForCaller(caller, frame.chatId) : undefined;
        if (chat) assertIdle(caller, chat.chatId);
        const agentId = chat ? chat.agentId : (frame.agentId ?? null);
        const santito = await santitoOf(caller, agentId);
        if (!chat && agentId && !santito) {
          throw new AppError('VALIDATION_FAILED', 'agentId: No such santito available to you');
        }
        const params = frame.params ?? chat?.params ?? {};
        // Before anything is stored: with no model, the send changes nothing.
        const resolved = await modelFor(caller, params, santito);
        if (!chat) {
          chat = await chats.createChat(caller, { agentId });
          hub.publish(caller.user.id, { type: 'chat.created', requestId: frame.requestId, chat });
        }
        if (frame.params && !sameParams(frame.params, chat.params ?? {})) {
          chat = await chats.updateChat(caller, chat.chatId, { params: frame.params });
          hub.publish(caller.user.id, { type: 'chat.updated', chat });
        }
        const pending = await prepareQuestion(caller, chat, frame.requestId, {
          content: frame.content,
          ...(frame.parentId !== undefined ? { parentId: frame.parentId } : {}),
          ...(frame.attachments ? { attachmentIds: frame.attachments } : {}),
        });
        handedOver = true;
        const gen = await answer(
          caller,
          chat,
          pending.message.messageId,
          params,
          santito,
          resolved,
          release,
          frame.requestId,
          since,
          pending,
        );
        // Titled once the answer is stored: kept off the path to the first token.
        const untitled = chat;
        const titling = gen.done.then(() => titleIfNew(caller, untitled, frame.content));
        background.add(titling);
        void titling.finally(() => background.delete(titling));
      } finally {
        if (!handedOver) release();
      }
    },

    /** `chat.regenerate`: a new answer to the same question, a sibling of the old one (kept). */
    async regenerate(caller: Caller, frame: ChatRegenerateFrame): Promise<void> {
      const since = Date.now();
      const chat = await chats.getChatForCaller(caller, frame.chatId);
      const target = await chats.getMessageForCaller(caller, frame.chatId, frame.messageId);
      const parentId = target.role === 'assistant' ? target.parentId : target.messageId;
      if (!parentId)
        throw new AppError('VALIDATION_FAILED', 'messageId: This answer has no question to answer again');
      assertIdle(caller, chat.chatId);
      const release = await admit(caller);
      let handedOver = false;
      try {
        const santito = await santitoOf(caller, chat.agentId);
        const params = chat.params ?? {};
        const resolved = await modelFor(caller, params, santito);
        handedOver = true;
        await answer(caller, chat, parentId, params, santito, resolved, release, frame.requestId, since);
      } finally {
        if (!handedOver) release();
      }
    },

    /** `chat.edit`: a new user message beside the edited one (same parent), then its answer. */
    async edit(caller: Caller, frame: ChatEditFrame): Promise<void> {
      const since = Date.now();
      const chat = await chats.getChatForCaller(caller, frame.chatId);
      const target = await chats.getMessageForCaller(caller, frame.chatId, frame.messageId);
      if (target.role !== 'user')
        throw new AppError('VALIDATION_FAILED', 'messageId: Only your own messages can be edited');
      assertIdle(caller, chat.chatId);
      const release = await admit(caller);
      let handedOver = false;
      try {
        const santito = await santitoOf(caller, chat.agentId);
        const params = chat.params ?? {};
        const resolved = await modelFor(caller, params, santito);
        const pending = await prepareQuestion(caller, chat, frame.requestId, {
          content: frame.content,
          parentId: target.parentId,
          attachmentIds: frame.attachments ?? (target.attachments ?? []).map((a) => a.attachmentId),
        });
        handedOver = true;
        await answer(
          caller,
          chat,
          pending.message.messageId,
          params,
          santito,
          resolved,
          release,
          frame.requestId,
          since,
          pending,
        );
      } finally {
        if (!handedOver) release();
      }
    },

    /** `chat.stop`: whichever replica runs the chat's answer stops it (kept as `stopped`). */
    async stop(caller: Caller, frame: ChatStopFrame): Promise<void> {
      await chats.getChatForCaller(caller, frame.chatId);
      const msg: ControlMessage = { op: 'stop', userId: caller.user.id, chatId: frame.chatId };
      await ctx.bus.publish(CONTROL_CHANNEL, msg);
    },

    /** `chat.subscribe`: snapshots of the chat's answers in progress, then `chat.subscribed`. */
    async subscribe(caller: Caller, frame: ChatSubscribeFrame, reply: Reply): Promise<void> {
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
      clearInterval(sweeper);
      unsubscribeControl();
      await registry.shutdown();
      await Promise.allSettled([...background]);
      hub.close();
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
