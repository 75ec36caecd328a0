import type {
  AnswerError,
  AttachmentReading,
  ChatParams,
  Citation,
  Message,
  MessagePart,
  ToolPart,
} from '@assistente/contracts';
import type { ModelMessage } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { Metrics } from '../../lib/metrics.ts';
import { blockedToolOutput, type PiiFilter, screenToolInput } from '../../lib/pii-filter.ts';
import type { AttachmentForModel, ChatCaller, ChatsService, ContextMessage } from '../chats/index.ts';
import type { ResolvedModel } from '../providers/index.ts';
import { type CallStart, type ModelCall as LedgerCall, tokensOf } from '../usage/index.ts';
import { HEARTBEAT_MS } from './heartbeat.ts';
import type { AgentsHub } from './hub.ts';
import {
  INTERRUPTED_MESSAGE,
  type ModelCall,
  type ModelStream,
  type ModelUsage,
  type ModelWorkers,
  messageUsage,
  modelInputParts,
} from './model-calls.ts';
import { type ExtractedText, MAX_INLINE_CHARS, modelMessages, needsExtraction } from './prompt.ts';
import {
  DENIED_OUTPUT,
  historyOf,
  modelTools,
  parseInput,
  partsTextLength,
  type ToolRuntime,
  uniqueCallId,
} from './tool-steps.ts';

/**
 * Store the text streamed so far this often, for every answer at once in one statement, so a crash
 * loses at most this plus the write's own time (the README's bound: 250 ms of stream). Answers are
 * shown as they arrive and stored a tick later: no token waits for the database.
 */
const FLUSH_MS = 100;
/** Total attachment bytes sent to a model in one call. */
const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
/** Texts read out of attachments kept for the next questions of their chat (a file never changes). */
const EXTRACTED_KEPT = 50;

/** The text of a PDF or DOCX of a domain, read by the bounded document reader (knowledge's). */
export type DocumentReader = (domainId: string, contentType: string, data: Buffer) => Promise<string>;

/** The usage gate every model call passes (docs/ARCHITECTURE.md#usage-prices-and-budgets). */
export type BeginCall = (start: CallStart) => Promise<LedgerCall>;

export interface GenerationInput {
  caller: ChatCaller;
  chatId: string;
  /** The user message being answered: the leaf of the model's context. */
  parentId: string;
  /**
   * That message when it is not stored yet: the model is called with it (after `branch`) while
   * `commit` stores it together with the answer's row, whose frames all wait for the commit.
   */
  pending?: {
    message: Message;
    branch: ContextMessage[];
    commit: (model: string | null) => Promise<Message>;
  };
  requestId?: string;
  resolved: ResolvedModel;
  system?: string;
  /** The knowledge put in `system`, stored on the answer and sent with `message.done`. */
  citations?: Citation[];
  /** The person's memories are in `system`: stored on the answer and sent with `message.done`. */
  usedMemory?: boolean;
  params: ChatParams;
  /**
   * The domain's PII filter (docs/ARCHITECTURE.md#pii-filter), for what reaches the model besides
   * the question (already filtered): attachments' text and the arguments of tool calls.
   */
  pii: PiiFilter;
  /** Whose call it is for the ledger: the model is the answer's, the tokens the call's. */
  ledger: Omit<CallStart['entry'], 'model'>;
  /** Frees the user's concurrency slot. */
  release: () => void;
  /** The tools the answer may call (docs/ARCHITECTURE.md#the-tool-loop); none when absent. */
  tools?: ToolRuntime;
  /** Model steps the answer may take; the last is offered no tools. */
  maxSteps?: number;
  /** A paused answer taken up again (already back to `streaming`): its row, with its steps. */
  resume?: Message;
}

/** One model step under way: its stream and its ledger call. */
interface Step {
  stream: ModelStream;
  call: LedgerCall;
  inputText: () => string | readonly string[];
}

type EndReason = 'stop' | 'shutdown';

/** One answer being generated on this process. */
export class Generation {
  content = '';
  /**
   * The end of `content` not yet sent as a `message.delta`: the deltas that arrive in one turn of
   * the event loop go out as one frame. Under load that is several tokens, so the busier the
   * process the fewer frames it writes.
   */
  unsent = '';
  /** Characters of `content` already in the database. */
  flushed = 0;
  /** When the row was last marked alive (created, or touched by a flush). */
  lastTouch = Date.now();
  /** Its text is final: flushes leave it to the final write. */
  ended = false;
  private endReason: EndReason | undefined;
  /** Resolves once the answer is finalised in the database and `message.done` is published. */
  done: Promise<void> = Promise.resolve();
  /** The knowledge the answer was given (docs/ARCHITECTURE.md#knowledge). */
  citations: Citation[] = [];
  /** The question's files the model reads only in part, told to the person with the answer. */
  readings: AttachmentReading[] = [];
  /** Its steps when it called tools: text cut at each call, and the calls. */
  parts: MessagePart[] = [];

  constructor(
    readonly message: Message,
    readonly userId: string,
    /** Whose answer: the identity account and organisation, for revocation. */
    readonly owner: { uid: string; domain: string },
    /** Shared with the model request, which may have started before this answer's row existed. */
    private readonly abort: AbortController,
  ) {}

  get messageId(): string {
    return this.message.messageId;
  }
  /** What the user's sockets have been sent so far (a snapshot must not repeat a delta to come). */
  get sentContent(): string {
    return this.content.slice(0, this.content.length - this.unsent.length);
  }
  get chatId(): string {
    return this.message.chatId;
  }

  /** `chat.stop`: ends the answer, kept with status `stopped`. */
  stop(): void {
    this.endReason ??= 'stop';
    this.abort.abort();
  }

  /** Server shutdown: ends the answer, kept with status `error` (interrupted). */
  interrupt(): void {
    this.endReason ??= 'shutdown';
    this.abort.abort();
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }
  get reason(): EndReason | undefined {
    return this.endReason;
  }
}

/**
 * Runs answers: the assistant message is created (status `streaming`) before the model is called,
 * its text is flushed while streaming and finalised at the end whatever happens — complete,
 * stopped, provider failure (partial text kept, status `error`). A socket going away changes
 * nothing here: only `chat.stop` (or shutdown) ends a generation early.
 */
export class GenerationRegistry {
  private readonly running = new Map<string, Generation>();
  /** Ledger writes of answers already over for their readers; shutdown waits for them. */
  private readonly settling = new Set<Promise<void>>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly chats: ChatsService,
    private readonly hub: AgentsHub,
    private readonly models: ModelWorkers,
    private readonly log: FastifyBaseLogger,
    private readonly readDocument: DocumentReader,
    private readonly metrics: Pick<Metrics, 'modelCall'>,
    private readonly beginCall: BeginCall,
    /** The output cap a call without `maxTokens` is held to by budgets. */
    private readonly defaultMaxOutput: number,
  ) {}

  /** Attachments' extracted texts, oldest first, each cut to what a model is given. */
  private readonly extracted = new Map<string, ExtractedText>();

  /** Drops the texts read out of files that are gone (retention deleted them). */
  forgetFiles(ids: readonly string[]): void {
    for (const id of ids) this.extracted.delete(id);
  }

  /** Whether a text read out of the file is kept here (for tests). */
  remembersFile(id: string): boolean {
    return this.extracted.has(id);
  }

  private async extract(domainId: string, f: AttachmentForModel): Promise<ExtractedText> {
    const known = this.extracted.get(f.attachmentId);
    if (known) return known;
    let read: ExtractedText;
    try {
      const text = await this.readDocument(domainId, f.contentType, f.data);
      read = { text: text.slice(0, MAX_INLINE_CHARS), length: text.length };
    } catch (err) {
      this.log.info({ reason: (err as Error).message, attachmentId: f.attachmentId }, 'attachment not read');
      read = { error: (err as Error).message };
    }
    this.extracted.set(f.attachmentId, read);
    if (this.extracted.size > EXTRACTED_KEPT)
      this.extracted.delete(this.extracted.keys().next().value as string);
    return read;
  }

  /**
   * Stores the new text of every answer streaming here, and touches those silent for a heartbeat
   * (for the stale sweep), in one statement however many answers stream.
   */
  private async flush(): Promise<void> {
    const now = Date.now();
    const batch: Array<{ gen: Generation; upTo: number; touch: boolean }> = [];
    for (const gen of this.running.values()) {
      if (gen.ended) continue;
      const upTo = gen.content.length;
      const touch = now - gen.lastTouch >= HEARTBEAT_MS;
      if (upTo > gen.flushed || touch) batch.push({ gen, upTo, touch });
    }
    if (batch.length === 0) return;
    try {
      await this.chats.saveStreaming(
        batch.map(({ gen, upTo, touch }) => ({
          id: gen.messageId,
          at: gen.flushed,
          text: gen.content.slice(gen.flushed, upTo),
          ...(touch ? { touch } : {}),
        })),
      );
      for (const b of batch) {
        b.gen.flushed = b.upTo;
        if (b.touch) b.gen.lastTouch = now;
      }
    } catch (err) {
      // Not advanced on failure: the same text goes again (from the same offset) with the next flush.
      this.log.warn({ err }, 'agents: storing streamed text failed');
    }
  }

  /**
   * Flushes every FLUSH_MS from the start of one to the start of the next while answers stream; a
   * flush slower than that is followed at once by the next, never overlapped.
   */
  private ensureFlusher(delay = FLUSH_MS): void {
    if (this.flushTimer || this.flushing || this.running.size === 0) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const started = Date.now();
      this.flushing = this.flush().finally(() => {
        this.flushing = undefined;
        this.ensureFlusher(Math.max(0, started + FLUSH_MS - Date.now()));
      });
    }, delay);
    this.flushTimer.unref();
  }

  get size(): number {
    return this.running.size;
  }

  /** This user's generations in a chat, on this process. */
  inChat(userId: string, chatId: string): Generation[] {
    return [...this.running.values()].filter((g) => g.userId === userId && g.chatId === chatId);
  }

  all(): Generation[] {
    return [...this.running.values()];
  }

  /**
   * Creates the answer's message (committed, announced with `message.created`) and runs the model
   * in the background. The model request goes out while the row is being inserted, so the
   * database's time hides behind the provider's; its first deltas wait for `message.created`.
   * Throws only if the context or the message cannot be loaded or stored; the slot is then freed.
   */
  async start(input: GenerationInput): Promise<Generation> {
    const abort = new AbortController();
    let first: Step | undefined;
    let message: Message;
    let readings: AttachmentReading[];
    let call: LedgerCall | undefined;
    let modelCall: ModelCall;
    const committing = input.pending?.commit(input.resolved.modelId);
    // Awaited below; marked handled now in case the context fails first.
    committing?.catch(() => {});
    try {
      const context = await this.contextFor(input);
      readings = context.readings;
      modelCall = this.callFor(input, context.messages);
      if (input.resume) {
        // A resumed answer runs its allowed calls before its next model step.
        message = input.resume;
      } else {
        const inputText = this.inputTextOf(modelCall);
        // Before the model is called: a budget without room refuses the answer here.
        call = await this.beginCall({
          entry: { ...input.ledger, model: input.resolved.modelId },
          estimate: { input: inputText, maxOutputTokens: input.params.maxTokens ?? this.defaultMaxOutput },
        });
        first = { stream: this.models.start(modelCall, abort.signal), call, inputText };
        message =
          (await committing) ??
          (await this.chats.createAssistantMessage(input.chatId, input.parentId, input.resolved.modelId));
      }
    } catch (err) {
      abort.abort();
      input.release();
      // Any tokens a call aborted this early used are not known: let go of its holds.
      await call
        ?.release()
        .catch((e: unknown) => this.log.warn({ err: e }, 'agents: releasing a call failed'));
      // The answer's row went in beside the context's read (or was taken up again).
      await this.endUnstarted(input.resume ?? committing, err);
      throw err;
    }
    const gen = new Generation(
      message,
      input.caller.user.id,
      { uid: input.caller.uid, domain: input.caller.domain.id },
      abort,
    );
    gen.citations = input.citations ?? message.citations ?? [];
    gen.readings = readings;
    if (input.resume) {
      gen.content = message.content;
      gen.flushed = message.content.length;
      gen.parts = [...(message.parts ?? [])];
    }
    this.running.set(gen.messageId, gen);
    this.ensureFlusher();
    if (input.resume) {
      this.hub.publish(gen.userId, { type: 'message.snapshot', chatId: gen.chatId, message });
    } else {
      this.hub.publish(gen.userId, {
        type: 'message.created',
        ...(input.requestId ? { requestId: input.requestId } : {}),
        chatId: gen.chatId,
        message,
      });
    }
    gen.done = this.run(gen, input, modelCall, first).finally(() => {
      this.running.delete(gen.messageId);
      input.release();
    });
    return gen;
  }

  /**
   * Ends an answer whose row was stored (or taken up again) but that could not start, with why (a
   * budget's refusal, a context that failed), rather than leave it streaming until the sweep finds it.
   */
  async endUnstarted(answer: Message | Promise<Message> | undefined, err: unknown): Promise<void> {
    const orphan = await Promise.resolve(answer).catch(() => undefined);
    if (!orphan) return;
    const error =
      err instanceof AppError
        ? { code: err.code, message: err.message }
        : { code: 'INTERNAL' as const, message: 'The answer could not start.' };
    await this.chats
      .finishAssistantMessage(orphan.messageId, {
        status: 'error',
        error,
        ...(orphan.parts ? { parts: orphan.parts } : {}),
      })
      .catch((e: unknown) => this.log.warn({ err: e }, 'agents: ending a refused answer failed'));
  }

  private inputTextOf(call: ModelCall): () => readonly string[] {
    return () => modelInputParts(call);
  }

  private callFor(input: GenerationInput, messages: ModelMessage[]): ModelCall {
    const tools = input.tools?.tools ?? [];
    return {
      target: input.resolved.target,
      messages,
      ...(tools.length > 0 && (input.maxSteps ?? 1) > 1 ? { tools: modelTools(tools) } : {}),
      ...(input.system ? { system: input.system } : {}),
      ...(input.params.temperature !== undefined ? { temperature: input.params.temperature } : {}),
      ...(input.params.maxTokens !== undefined ? { maxOutputTokens: input.params.maxTokens } : {}),
    };
  }

  private async contextFor(input: GenerationInput) {
    const question = input.pending?.message;
    const branch = question
      ? [
          ...(input.pending?.branch ?? []),
          {
            messageId: question.messageId,
            role: question.role,
            content: question.content,
            attachmentIds: (question.attachments ?? []).map((a) => a.attachmentId),
          },
        ]
      : await this.chats.listMessagesForContext(input.chatId, input.parentId);
    const ids = [...new Set(branch.flatMap((m) => m.attachmentIds))];
    const files = new Map<string, AttachmentForModel>();
    if (ids.length > 0) {
      let total = 0;
      // Newest first, so the latest files win when the total is over the cap.
      for (const f of (await this.chats.getAttachmentsForModel(input.caller, ids)).reverse()) {
        if (total + f.size > MAX_ATTACHMENT_BYTES) continue;
        total += f.size;
        files.set(f.attachmentId, f);
      }
    }
    const kind = input.resolved.target.kind;
    // With the filter on, a PDF is read as text even by a model that reads PDFs: its text is filtered.
    const filtered = input.pii.settings.mode !== 'off';
    const extracted = new Map<string, ExtractedText>();
    for (const f of files.values())
      if (needsExtraction(f, kind, filtered))
        extracted.set(f.attachmentId, await this.extract(input.caller.domain.id, f));
    return modelMessages(branch, files, kind, extracted, input.pii.text);
  }

  /** Reads one model step's stream into the answer: its text, its tool calls, how it ended. */
  private async consume(gen: Generation, stream: ModelStream) {
    let finishReason = 'stop';
    let usage: ModelUsage | undefined;
    let error: AnswerError | undefined;
    const toolCalls: Array<{ toolCallId: string; toolName: string; input: string }> = [];

    let sendScheduled = false;
    const sendUnsent = () => {
      sendScheduled = false;
      if (!gen.unsent) return;
      const delta = gen.unsent;
      gen.unsent = '';
      this.hub.publish(gen.userId, {
        type: 'message.delta',
        chatId: gen.chatId,
        messageId: gen.messageId,
        delta,
      });
    };

    await new Promise<void>((ended) =>
      stream.consume((event) => {
        switch (event.type) {
          case 'delta':
            gen.content += event.text;
            gen.unsent += event.text;
            if (!sendScheduled) {
              sendScheduled = true;
              setImmediate(sendUnsent);
            }
            break;
          case 'tool-call':
            toolCalls.push(event);
            break;
          case 'finish':
            finishReason = event.finishReason;
            usage = event.usage;
            break;
          case 'error':
            error ??= { code: 'PROVIDER_ERROR', message: event.message, reason: event.reason };
            this.log.warn({ reason: event.message, messageId: gen.messageId }, 'agents: provider failed');
            break;
          case 'end':
            if (event.failure && !gen.signal.aborted) {
              error ??= {
                code: event.failure.code ?? 'PROVIDER_ERROR',
                message: event.failure.message,
                ...(event.failure.reason ? { reason: event.failure.reason } : {}),
              };
              if (event.failure.detail) {
                this.log.error(
                  { detail: event.failure.detail, messageId: gen.messageId },
                  'agents: generation failed',
                );
              } else {
                this.log.warn(
                  { reason: event.failure.message, messageId: gen.messageId },
                  'agents: generation failed',
                );
              }
            }
            ended();
        }
      }),
    );
    // Every delta goes out before what follows (a tool call, the answer's end).
    sendUnsent();
    return { finishReason, usage, error, toolCalls };
  }

  /** The next model step: budgeted before it goes out (a budget without room ends the answer). */
  private async nextStep(gen: Generation, input: GenerationInput, call: ModelCall): Promise<Step> {
    const inputText = this.inputTextOf(call);
    const ledger = await this.beginCall({
      entry: { ...input.ledger, source: 'tool', model: input.resolved.modelId },
      estimate: { input: inputText, maxOutputTokens: input.params.maxTokens ?? this.defaultMaxOutput },
    });
    return { stream: this.models.start(call, gen.signal), call: ledger, inputText };
  }

  /**
   * The model's tool calls of one step, as parts: those the policy (or the person, for this chat)
   * allows run at once, one after the other; the others wait for the person, or are refused.
   */
  private async takeCalls(
    gen: Generation,
    input: GenerationInput,
    calls: ReadonlyArray<{ toolCallId: string; toolName: string; input: string }>,
  ): Promise<void> {
    const runtime = input.tools;
    const allowed = runtime ? await runtime.allowed() : new Set<string>();
    const textBefore = gen.content.slice(partsTextLength(gen.parts));
    if (textBefore) gen.parts.push({ type: 'text', text: textBefore });
    let first = true;
    for (const c of calls) {
      const tool = runtime?.tools.find((t) => t.modelName === c.toolName);
      // What the model passes a tool goes through the domain's filter first: kept, shown and run redacted.
      const { input: args, blocked } = screenToolInput(input.pii, parseInput(c.input) ?? c.input);
      const decision = !tool
        ? 'deny'
        : allowed.has(tool.ref)
          ? 'allow'
          : tool.decision === 'ask' && runtime?.askIsDeny
            ? 'deny'
            : tool.decision;
      const part: ToolPart = {
        type: 'tool',
        toolCallId: uniqueCallId(gen.parts, c.toolCallId),
        tool: tool?.ref ?? `unknown:${c.toolName}`,
        title: tool?.title ?? c.toolName,
        input: args,
        ...(blocked
          ? // In block mode only this call is refused: the model reads why, and may call again without them.
            { status: 'error', output: blockedToolOutput(blocked) }
          : {
              status: decision === 'ask' ? 'awaiting_approval' : decision === 'allow' ? 'running' : 'denied',
              ...(decision === 'deny'
                ? { output: tool ? DENIED_OUTPUT : `There is no tool named ${c.toolName}.` }
                : {}),
            }),
      };
      gen.parts.push(part);
      this.hub.publish(gen.userId, {
        type: 'tool.call',
        chatId: gen.chatId,
        messageId: gen.messageId,
        toolCallId: part.toolCallId,
        tool: part.tool,
        title: part.title,
        input: part.input,
        needsApproval: part.status === 'awaiting_approval',
        textBefore: first ? textBefore : '',
      });
      first = false;
      if (part.status === 'denied' || blocked) {
        this.toolResult(gen, part);
        if (tool) this.audit(gen, input, part, 'deny');
      }
    }
    await this.runAllowed(gen, input);
  }

  /** Runs the parts marked `running` (allowed, not run yet), in order; Stop cancels the one running. */
  private async runAllowed(gen: Generation, input: GenerationInput): Promise<void> {
    const runtime = input.tools;
    const allowed = runtime ? await runtime.allowed() : new Set<string>();
    for (const part of gen.parts) {
      if (part.type !== 'tool' || part.status !== 'running' || part.output !== undefined) continue;
      const tool = runtime?.tools.find((t) => t.ref === part.tool);
      const startedAt = performance.now();
      const args = typeof part.input === 'object' && part.input !== null ? part.input : undefined;
      if (!tool || !runtime || !args) {
        part.status = 'error';
        part.output = !tool
          ? 'This tool is not available any more.'
          : 'The tool was called with arguments that are not a JSON object.';
      } else if (gen.signal.aborted) {
        part.status = 'error';
        part.output = 'The answer was stopped before this tool ran.';
      } else {
        try {
          const out = await runtime.run(tool, args as Record<string, unknown>, gen.signal, gen.citations);
          part.status = out.isError ? 'error' : 'done';
          part.output = out.text;
          // What a search or a page read found is cited like knowledge: numbered, under the answer.
          if (out.citations) gen.citations.push(...out.citations);
          if (out.files) part.files = out.files;
        } catch (err) {
          part.status = 'error';
          part.output = gen.signal.aborted
            ? 'The tool call was cancelled.'
            : err instanceof Error && err.name === 'TimeoutError'
              ? 'The tool did not answer in time.'
              : `The tool call failed: ${err instanceof Error ? err.message : String(err)}`;
        }
        part.durationMs = Math.round(performance.now() - startedAt);
      }
      this.toolResult(gen, part);
      // A call that ran though the policy asks was allowed by the person (now, or for the chat).
      this.audit(gen, input, part, tool?.decision === 'ask' || allowed.has(part.tool) ? 'allowed' : 'allow');
    }
  }

  private toolResult(gen: Generation, part: ToolPart): void {
    this.hub.publish(gen.userId, {
      type: 'tool.result',
      chatId: gen.chatId,
      messageId: gen.messageId,
      toolCallId: part.toolCallId,
      status: part.status,
      ...(part.output !== undefined ? { output: part.output } : {}),
      ...(part.durationMs !== undefined ? { durationMs: part.durationMs } : {}),
      ...(part.files ? { files: part.files } : {}),
    });
  }

  /**
   * Every call in the audit log, written beside the answer (not before its next step); shutdown
   * waits for it. A write that fails is logged, never the answer's failure.
   */
  private audit(
    gen: Generation,
    input: GenerationInput,
    part: ToolPart,
    decision: 'allow' | 'ask' | 'deny' | 'allowed' | 'denied',
  ): void {
    const written = input.tools?.audit({
      ref: part.tool,
      input: part.input,
      decision,
      status: part.status,
      ...(part.durationMs !== undefined ? { durationMs: part.durationMs } : {}),
    });
    if (!written) return;
    this.track(
      written.catch((err: unknown) =>
        this.log.error({ err, messageId: gen.messageId }, 'agents: auditing a tool call failed'),
      ),
    );
  }

  /** Writes an answer no longer waits for (ledger, audit); shutdown waits for them. */
  private track(work: Promise<void>): void {
    const tracked = work.finally(() => this.settling.delete(tracked));
    this.settling.add(tracked);
  }

  /**
   * The answer's steps: a model step, then its tool calls and the next step with their results,
   * up to `maxSteps` (the last offered no tools), until the model answers in text, the person is
   * asked (the answer pauses, stored), Stop, or a failure. Each step is its own ledger row.
   */
  private async run(
    gen: Generation,
    input: GenerationInput,
    base: ModelCall,
    first: Step | undefined,
  ): Promise<void> {
    let status: 'complete' | 'stopped' | 'error' | 'awaiting_approval' = 'complete';
    let finishReason = 'stop';
    // A resumed answer's steps before its pause count in the usage it shows.
    let usage: ModelUsage | undefined = input.resume?.usage;
    let error: AnswerError | undefined;
    const maxSteps = input.tools ? (input.maxSteps ?? 1) : 1;
    let steps = stepsTaken(gen.parts);
    const callNow = (): ModelCall => {
      const messages = [...base.messages, ...historyOf(gen.parts, input.tools?.tools ?? [])];
      // The last step may only answer: a model that keeps calling tools ends in words.
      const last = steps + 1 >= maxSteps;
      const { tools: _offered, toolChoice: _choice, ...rest } = base;
      return last || !base.tools ? { ...rest, messages } : { ...base, messages };
    };

    let step = first;
    try {
      if (!step) {
        // A resumed answer: the calls the person allowed run first.
        await this.runAllowed(gen, input);
        if (!gen.signal.aborted) step = await this.nextStep(gen, input, callNow());
      }
      while (step) {
        const stepStart = gen.content.length;
        const result = await this.consume(gen, step.stream);
        steps++;
        this.metrics.modelCall(input.resolved.modelId, step.stream.firstTokenSeconds, result.usage);
        usage = addUsage(usage, result.usage);
        // After the reader has what the step wrote, outside `done`: the ledger's write (retried by
        // the gate) neither delays the answer nor keeps its slot busy.
        this.track(
          this.settle(
            gen,
            step.call,
            result.usage,
            step.inputText,
            gen.content.slice(stepStart),
            !result.error,
          ),
        );
        finishReason = result.finishReason;
        if (result.error) {
          error = result.error;
          break;
        }
        if (gen.signal.aborted || result.toolCalls.length === 0 || !input.tools) break;
        await this.takeCalls(gen, input, result.toolCalls);
        if (gen.signal.aborted) break;
        if (gen.parts.some((p) => p.type === 'tool' && p.status === 'awaiting_approval')) {
          status = 'awaiting_approval';
          finishReason = 'tool-calls';
          break;
        }
        step = await this.nextStep(gen, input, callNow());
      }
    } catch (err) {
      // The next step could not start (a budget without room, a context gone).
      error =
        err instanceof AppError
          ? { code: err.code, message: err.message }
          : { code: 'INTERNAL', message: 'The answer could not go on.' };
      if (!(err instanceof AppError))
        this.log.error({ err, messageId: gen.messageId }, 'agents: a tool step failed');
    }

    // The final write holds the whole text; a flush still under way lands first, so none of its
    // pieces outlives the answer's end.
    gen.ended = true;
    await this.flushing;

    if (gen.reason === 'stop') {
      status = 'stopped';
      finishReason = 'stopped';
      error = undefined;
    } else if (gen.reason === 'shutdown') {
      status = 'error';
      finishReason = 'error';
      error = { code: 'UNAVAILABLE', message: INTERRUPTED_MESSAGE };
    } else if (error) {
      status = 'error';
      finishReason = 'error';
    }
    if (status !== 'awaiting_approval') {
      // Calls still waiting when the answer ends otherwise (Stop) will never run.
      for (const p of gen.parts) {
        if (p.type === 'tool' && p.status === 'awaiting_approval') {
          p.status = 'denied';
          p.output = DENIED_OUTPUT;
        }
      }
    }
    // The text after the last call is `content`'s rest, kept out of the parts.
    const stored = usage ? messageUsage(usage) : undefined;
    // A resumed answer used them if any of its steps did.
    const usedMemory = !!input.usedMemory || !!input.resume?.usedMemory;
    try {
      await this.chats.finishAssistantMessage(gen.messageId, {
        status,
        content: gen.content,
        ...(usedMemory ? { usedMemory } : {}),
        ...(stored ? { usage: stored } : {}),
        ...(error ? { error } : {}),
        ...(gen.citations.length > 0 ? { citations: gen.citations } : {}),
        ...(gen.readings.length > 0 ? { attachmentReadings: gen.readings } : {}),
        ...(gen.parts.length > 0 ? { parts: gen.parts } : {}),
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') {
        // Its chat went away mid-answer (an embed deleted with its visitors' chats): nothing to keep.
        this.log.info({ messageId: gen.messageId }, 'agents: an answer ended after its chat was deleted');
      } else {
        // The text was stored while streaming; the stale sweep ends the row if this write never lands.
        this.log.error({ err, messageId: gen.messageId }, 'agents: could not finalise an answer');
      }
    }
    this.hub.publish(gen.userId, {
      type: 'message.done',
      chatId: gen.chatId,
      messageId: gen.messageId,
      status,
      finishReason,
      usage: stored ?? null,
      ...(error ? { error } : {}),
      ...(gen.citations.length > 0 ? { citations: gen.citations } : {}),
      ...(gen.readings.length > 0 ? { attachmentReadings: gen.readings } : {}),
      ...(usedMemory ? { usedMemory } : {}),
    });
  }

  /**
   * One ledger row for a step, whatever its end: the provider's usage, else an estimate from the
   * texts (a stopped stream reports nothing, yet the model read the question); a call that failed
   * before any token lets go of its holds instead.
   */
  private async settle(
    gen: Generation,
    call: LedgerCall,
    usage: ModelUsage | undefined,
    inputText: () => string | readonly string[],
    output: string,
    succeeded: boolean,
  ): Promise<void> {
    try {
      if (!succeeded && !usage && !output) await call.release();
      else await call.settle(await tokensOf(usage, { input: inputText, output }));
    } catch (err) {
      this.log.error({ err, messageId: gen.messageId }, 'agents: could not settle an answer in the ledger');
    }
  }

  /** Stops every generation here (shutdown) and waits for each to be stored and settled. */
  async shutdown(): Promise<void> {
    const all = this.all();
    for (const g of all) g.interrupt();
    await Promise.allSettled(all.map((g) => g.done));
    await Promise.allSettled([...this.settling]);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flushing;
  }
}

/** The model steps an answer took before it paused: one per group of tool calls. */
function stepsTaken(parts: readonly MessagePart[]): number {
  let steps = 0;
  let inCalls = false;
  for (const p of parts) {
    if (p.type === 'tool' && !inCalls) steps++;
    inCalls = p.type === 'tool';
  }
  return steps;
}

/** The usage of an answer's steps together. */
function addUsage(a: ModelUsage | undefined, b: ModelUsage | undefined): ModelUsage | undefined {
  if (!a || !b) return a ?? b;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...(a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined
      ? { cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0) }
      : {}),
    ...(a.reasoningTokens !== undefined || b.reasoningTokens !== undefined
      ? { reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0) }
      : {}),
  };
}
