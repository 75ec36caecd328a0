import type { ServerFrame } from '@assistente/contracts';
import type { AppContext, Services } from '../../context.ts';
import { GenerationRegistry } from './generation.ts';
import { AgentsHub } from './hub.ts';
import { type AgentLimits, createAgentLimits } from './limits.ts';
import { defaultModelWorkers, ModelWorkers } from './model-calls.ts';

/** Bus channel of commands every replica obeys for the generations it runs. */
export const CONTROL_CHANNEL = 'agents.control';

export type ControlMessage = { op: 'stop' | 'snapshot'; userId: string; chatId: string };

/** Sends one frame to the socket that asked (errors, acks); everything else goes through the hub. */
export type Reply = (frame: ServerFrame) => void;

/**
 * What every operation of the agents module shares (docs/ARCHITECTURE.md#service-style): the
 * services it calls, the hub, the limits, the model threads and the generations running here.
 */
export interface AgentsState {
  readonly ctx: AppContext;
  readonly chats: Services['chats'];
  readonly santitos: Services['santitos'];
  readonly providers: Services['providers'];
  readonly hub: AgentsHub;
  readonly limits: AgentLimits;
  readonly models: ModelWorkers;
  readonly registry: GenerationRegistry;
  /** When a stop was asked per user and chat: a stop racing the answer's start still stops it. */
  readonly stopsAsked: Map<string, number>;
  /** Whether each session seen here is the editor's (a session never changes kind): the ledger's source. */
  readonly editorSessions: Map<string, boolean>;
  /** False until the first sweep on a sole writer, which ends every answer left streaming. */
  sweptAtStart: boolean;
}

export function createAgentsState(ctx: AppContext): AgentsState {
  const { chats, santitos, providers } = ctx.services;
  const hub = new AgentsHub(ctx.bus, ctx.log);
  const models = new ModelWorkers({
    size: ctx.config.MODEL_WORKERS ?? defaultModelWorkers(),
    allowlist: ctx.config.PROVIDER_URL_ALLOWLIST,
    firstByteTimeoutMs: ctx.config.PROVIDER_FIRST_BYTE_TIMEOUT_MS,
    idleTimeoutMs: ctx.config.PROVIDER_IDLE_TIMEOUT_MS,
    log: ctx.log,
  });
  return {
    ctx,
    chats,
    santitos,
    providers,
    hub,
    limits: createAgentLimits(ctx),
    models,
    // Attachments are read by knowledge's document reader: the same bounds, the same per-domain turns.
    registry: new GenerationRegistry(
      chats,
      hub,
      models,
      ctx.log,
      (domainId, type, data) => ctx.services.knowledge.ingest.extractor.file(domainId, type, data),
      ctx.metrics,
      (start) => ctx.services.usage.begin(start),
      ctx.config.DEFAULT_MAX_OUTPUT_TOKENS,
    ),
    stopsAsked: new Map(),
    editorSessions: new Map(),
    // A process that alone writes its database (the embedded one) knows, when it starts, that every
    // answer still streaming died with the process before it.
    sweptAtStart: !ctx.soleWriter,
  };
}

export const stopKey = (userId: string, chatId: string) => `${userId}\n${chatId}`;
