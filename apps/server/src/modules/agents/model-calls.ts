import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { JSONSchema7, LanguageModelV3ToolChoice } from '@ai-sdk/provider';
import type { MessageUsage, ProviderFailure } from '@assistente/contracts';
import type { ModelMessage } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import { spawnTsWorker } from '../../lib/ts-worker.ts';
import type { ModelTarget } from '../providers/factory.ts';

/** One model call: what a worker needs to make it, all of it structured-cloneable. */
export interface ModelCall {
  target: ModelTarget;
  system?: string;
  messages: ModelMessage[];
  temperature?: number;
  maxOutputTokens?: number;
  /** Functions the model may call; it answers with `tool-call` events and finishes `tool-calls`. */
  tools?: ModelTool[];
  toolChoice?: LanguageModelV3ToolChoice;
}

/**
 * What a call's model reads, a part per message, for the token estimate of budgets: a part counted
 * before (a conversation's earlier messages) is counted once (usage's estimateTokens).
 */
export function modelInputParts(call: ModelCall): readonly string[] {
  return [
    call.system ?? '',
    ...call.messages.map(
      (m) => `${m.role}\n${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`,
    ),
    call.tools ? JSON.stringify(call.tools) : '',
  ];
}

/** A function offered to the model: its name, what it is for, and its input as JSON Schema. */
export interface ModelTool {
  name: string;
  description?: string;
  inputSchema: JSONSchema7;
}

/**
 * A provider's usage as the worker reports it: what an answer stores (`MessageUsage`), and what of
 * it came from the provider's cache or went to reasoning, for the ledger
 * (docs/ARCHITECTURE.md#usage-prices-and-budgets).
 */
export interface ModelUsage extends MessageUsage {
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

/** The part of a call's usage an answer stores and sends (the public `MessageUsage`). */
export const messageUsage = (u: ModelUsage): MessageUsage => ({
  inputTokens: u.inputTokens,
  outputTokens: u.outputTokens,
  totalTokens: u.totalTokens,
});

/** What a call streams back, in order; `end` comes last, exactly once. */
export type ModelEvent =
  | { type: 'delta'; text: string }
  /** A whole tool call the model made; `input` is its JSON text as the model wrote it. */
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string }
  | { type: 'finish'; finishReason: string; usage?: ModelUsage }
  /** The provider reported an error inside its stream (the stream goes on to its end). */
  | { type: 'error'; message: string; reason: ProviderFailure }
  /** `failure`: the call could not be made, broke off or timed out (not when it was aborted). */
  | {
      type: 'end';
      /** `code`: a timeout, or UNAVAILABLE when the server (not the provider) cut the call short. */
      failure?: {
        message: string;
        detail?: string;
        code?: 'PROVIDER_TIMEOUT' | 'UNAVAILABLE';
        /** A provider's failure, for the web to say in words. */
        reason?: ProviderFailure;
      };
    };

export type ToWorker = { type: 'call'; id: number; call: ModelCall } | { type: 'abort'; id: number };
export interface WorkerData {
  allowlist: readonly string[];
  /** Give up on a provider silent this long before its first chunk, and between chunks. */
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
}

/** An answer that could not finish: its worker stopped, or the server is shutting down. */
export const INTERRUPTED_MESSAGE = 'The answer was interrupted before it finished.';

/** A call's events, held until the answer consumes them (its first ones may come before its row exists). */
export class ModelStream {
  private held: ModelEvent[] | undefined = [];
  private sink: ((event: ModelEvent) => void) | undefined;
  /** When the call went to its worker and when its first text came back, whoever consumes it later. */
  private readonly startedAt = performance.now();
  private firstTextAt: number | undefined;

  /** Seconds from the call to its first text (the metrics' time to first token), once there was text. */
  get firstTokenSeconds(): number | undefined {
    return this.firstTextAt === undefined ? undefined : (this.firstTextAt - this.startedAt) / 1000;
  }

  push(event: ModelEvent): void {
    if (event.type === 'delta' && this.firstTextAt === undefined) this.firstTextAt = performance.now();
    if (this.sink) this.sink(event);
    else this.held?.push(event);
  }

  consume(sink: (event: ModelEvent) => void): void {
    this.sink = sink;
    const held = this.held ?? [];
    this.held = undefined;
    for (const event of held) sink(event);
  }
}

interface Slot {
  worker: Worker;
  calls: Map<number, ModelStream>;
}

/** How many model workers by default: the cores the main thread leaves, at least one, at most four. */
export const defaultModelWorkers = () => Math.min(4, Math.max(1, availableParallelism() - 1));

/**
 * Model calls on worker threads. A worker is started on first use; calls go to the one with the
 * fewest in flight. A worker that dies ends its calls with a failure and is replaced on next use.
 */
export class ModelWorkers {
  private readonly slots: Array<Slot | undefined>;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: WorkerData & { size: number; log: FastifyBaseLogger }) {
    this.slots = Array.from({ length: Math.max(1, opts.size) }, () => undefined);
  }

  private slot(i: number): Slot {
    const existing = this.slots[i];
    if (existing) return existing;
    const worker = spawnTsWorker(new URL('./model-worker.ts', import.meta.url), {
      allowlist: this.opts.allowlist,
      firstByteTimeoutMs: this.opts.firstByteTimeoutMs,
      idleTimeoutMs: this.opts.idleTimeoutMs,
    } satisfies WorkerData);
    const slot: Slot = { worker, calls: new Map() };
    worker.on('message', (batch: Array<[number, ModelEvent]>) => {
      for (const [id, event] of batch) {
        const stream = slot.calls.get(id);
        if (!stream) continue;
        if (event.type === 'end') slot.calls.delete(id);
        stream.push(event);
      }
    });
    const lost = (reason: string) => {
      if (this.slots[i] !== slot) return;
      this.slots[i] = undefined;
      if (!this.closed) this.opts.log.error({ reason }, 'agents: a model worker stopped');
      const calls = [...slot.calls.values()];
      slot.calls.clear();
      for (const stream of calls) {
        stream.push({ type: 'end', failure: { message: INTERRUPTED_MESSAGE, code: 'UNAVAILABLE' } });
      }
    };
    worker.on('error', (err) => lost(err.stack ?? err.message));
    worker.on('exit', (code) => lost(`exit ${code}`));
    // Idle workers must not keep the process alive.
    worker.unref();
    this.slots[i] = slot;
    return slot;
  }

  /** Runs `call` on the least busy worker; aborting `signal` ends it (its `end` then has no failure). */
  start(call: ModelCall, signal: AbortSignal): ModelStream {
    const stream = new ModelStream();
    if (this.closed) {
      stream.push({ type: 'end', failure: { message: INTERRUPTED_MESSAGE, code: 'UNAVAILABLE' } });
      return stream;
    }
    let best = 0;
    for (let i = 1; i < this.slots.length; i++) {
      if ((this.slots[i]?.calls.size ?? 0) < (this.slots[best]?.calls.size ?? 0)) best = i;
    }
    const slot = this.slot(best);
    const id = this.nextId++;
    slot.calls.set(id, stream);
    slot.worker.postMessage({ type: 'call', id, call } satisfies ToWorker);
    const abort = () => {
      if (slot.calls.has(id)) slot.worker.postMessage({ type: 'abort', id } satisfies ToWorker);
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    return stream;
  }

  /** Stops every worker; calls still running end with a failure. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s?.worker.terminate()));
  }
}
