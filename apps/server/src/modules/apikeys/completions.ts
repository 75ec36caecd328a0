import { randomBytes } from 'node:crypto';
import type {
  ChatCompletionMessage,
  ChatCompletionRequest,
  ChatCompletionToolCall,
  OpenAiModel,
  OpenAiModelList,
} from '@assistente/contracts';
import type { ModelMessage } from 'ai';
import type { AppContext } from '../../context.ts';
import type { ApiKeyCaller } from '../../lib/caller.ts';
import { AppError, invalidField } from '../../lib/errors.ts';
import type { PiiFilter } from '../../lib/pii-filter.ts';
import { createAgentLimits } from '../agents/limits.ts';
import {
  type ModelCall,
  type ModelEvent,
  type ModelStream,
  type ModelTool,
  type ModelUsage,
  modelInputParts,
} from '../agents/model-calls.ts';
import { systemPrompt } from '../agents/prompt.ts';
import { knowledgeForAnswer } from '../knowledge/index.ts';
import type { ResolvedModel } from '../providers/index.ts';
import type { SantitoRow } from '../santitos/index.ts';
import { type ModelCall as LedgerCall, tokensOf } from '../usage/index.ts';
import {
  ambiguousModel,
  modelNotFound,
  noModelCalls,
  providerFailure,
  tooManyKeyRequests,
  tooManyUserGenerations,
} from './errors.ts';

/** `santito:{id}` names a santito as a model of the OpenAI-compatible API. */
const SANTITO_MODEL_PREFIX = 'santito:';

/** A call checked and ready: the model to call, what to send it, and the slot it holds. */
export interface PreparedCompletion {
  id: string;
  created: number;
  /** As the client named it: echoed in every answer, as OpenAI does. */
  requestedModel: string;
  resolved: ResolvedModel;
  santito: SantitoRow | undefined;
  call: ModelCall;
  /** The call at the usage gate (docs/ARCHITECTURE.md#usage-prices-and-budgets): settled by `record`. */
  ledger: LedgerCall;
  /** Frees the user's generation slot; call it once, when the call ends. */
  release: () => void;
}

/** Everything a call produced once it ended. */
export interface CompletionResult {
  text: string;
  toolCalls: ChatCompletionToolCall[];
  finishReason: string;
  usage: ModelUsage | undefined;
  /** The provider failed (after `text`, if any). */
  failure: AppError | undefined;
}

/** How a call ended, for its API log. */
export type CompletionStatus = 'complete' | 'stopped' | 'error';

/** A model's tool call in OpenAI's shape. */
export const toToolCall = (e: Extract<ModelEvent, { type: 'tool-call' }>): ChatCompletionToolCall => ({
  id: e.toolCallId,
  type: 'function',
  function: { name: e.toolName, arguments: e.input },
});

/** What a call wrote, for the usage estimate: its text and its tool calls' arguments. */
export const writtenOf = (text: string, calls: ChatCompletionToolCall[]) =>
  text + calls.map((c) => c.function.name + c.function.arguments).join('');

/** Reads a call's events to its end. */
async function collect(stream: ModelStream): Promise<CompletionResult> {
  const result: CompletionResult = {
    text: '',
    toolCalls: [],
    finishReason: 'stop',
    usage: undefined,
    failure: undefined,
  };
  await new Promise<void>((done) =>
    stream.consume((event) => {
      if (event.type === 'delta') result.text += event.text;
      else if (event.type === 'tool-call') result.toolCalls.push(toToolCall(event));
      else if (event.type === 'finish') {
        result.finishReason = event.finishReason;
        result.usage = event.usage;
      } else if (event.type === 'error') result.failure ??= providerFailure(event.message);
      else if (event.type === 'end') {
        if (event.failure) result.failure ??= providerFailure(event.failure.message, event.failure.code);
        done();
      }
    }),
  );
  return result;
}

/** What the model reads of a call, for a token estimate. */

/** The text of a message's content; OpenAI's text parts are joined as one text. */
function textOf(content: ChatCompletionMessage['content']): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => p.text).join('');
}

/**
 * The request as the domain's PII filter lets it reach the model (docs/ARCHITECTURE.md#pii-filter):
 * every message's text and every earlier tool call's arguments, whatever their role — the client
 * wrote them all. Block mode refuses the whole request with PII_BLOCKED.
 */
function screenRequest(filter: PiiFilter, body: ChatCompletionRequest): ChatCompletionRequest {
  if (filter.settings.mode === 'off') return body;
  const content = (c: ChatCompletionMessage['content']): ChatCompletionMessage['content'] =>
    c === null
      ? c
      : typeof c === 'string'
        ? filter.text(c)
        : c.map((p) => ({ ...p, text: filter.text(p.text) }));
  // As JSON when it is: a number redacted in the text (`{"cpf": [CPF]}`) would no longer parse.
  const args = (text: string): string => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return filter.text(text);
    }
    return JSON.stringify(filter.json(value));
  };
  return {
    ...body,
    messages: body.messages.map((m) => ({
      ...m,
      content: content(m.content),
      ...(m.tool_calls
        ? {
            tool_calls: m.tool_calls.map((c) => ({
              ...c,
              function: { ...c.function, arguments: args(c.function.arguments) },
            })),
          }
        : {}),
    })),
  };
}

/** A tool call's arguments as the model call holds them (parsed); refused when they are not JSON. */
function argumentsOf(text: string, field: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    throw invalidField(field, 'Tool call arguments must be a JSON text');
  }
}

/** The client's functions and its choice among them, as a model call offers them. */
function toolsOf(body: ChatCompletionRequest): Pick<ModelCall, 'tools' | 'toolChoice'> {
  if (!body.tools?.length) return {};
  const tools: ModelTool[] = body.tools.map((t) => ({
    name: t.function.name,
    ...(t.function.description ? { description: t.function.description } : {}),
    inputSchema: (t.function.parameters ?? { type: 'object', properties: {} }) as ModelTool['inputSchema'],
  }));
  const choice = body.tool_choice;
  if (choice === undefined) return { tools };
  if (typeof choice === 'string') return { tools, toolChoice: { type: choice } };
  if (!tools.some((t) => t.name === choice.function.name))
    throw invalidField('tool_choice', `No tool is named ${choice.function.name}`);
  return { tools, toolChoice: { type: 'tool', toolName: choice.function.name } };
}

/**
 * OpenAI's messages as the model call's: system and developer messages become the system prompt
 * (after the santito's instructions), the rest the conversation — an assistant's tool calls and the
 * `tool` messages answering them included, each result matched to its call.
 */
function toModelCall(
  body: ChatCompletionRequest,
  resolved: ResolvedModel,
  santito: SantitoRow | undefined,
  /** The santito's knowledge for the last user message (docs/ARCHITECTURE.md#knowledge), as chats put it. */
  knowledge?: string,
): ModelCall {
  const systemParts: string[] = [];
  const messages: ModelMessage[] = [];
  /** Tool names by call id, for the results that answer them. */
  const called = new Map<string, string>();
  body.messages.forEach((m, i) => {
    const text = textOf(m.content);
    if (m.role === 'system' || m.role === 'developer') {
      if (text.trim()) systemParts.push(text);
    } else if (m.role === 'assistant') {
      const calls = (m.tool_calls ?? []).map((c, j) => {
        called.set(c.id, c.function.name);
        return {
          type: 'tool-call' as const,
          toolCallId: c.id,
          toolName: c.function.name,
          input: argumentsOf(c.function.arguments, `messages.${i}.tool_calls.${j}.function.arguments`),
        };
      });
      if (calls.length)
        messages.push({
          role: 'assistant',
          content: [...(text ? [{ type: 'text' as const, text }] : []), ...calls],
        });
      else if (text.trim()) messages.push({ role: 'assistant', content: text });
    } else if (m.role === 'tool') {
      const toolName = m.tool_call_id ? called.get(m.tool_call_id) : undefined;
      if (!toolName)
        throw invalidField(
          `messages.${i}.tool_call_id`,
          'A tool message must answer a tool call of an earlier assistant message',
        );
      messages.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: m.tool_call_id ?? '',
            toolName,
            output: { type: 'text', value: text },
          },
        ],
      });
    } else {
      if (!text.trim()) throw invalidField(`messages.${i}.content`, 'A user message needs some text');
      messages.push({ role: 'user', content: text });
    }
  });
  if (!messages.some((m) => m.role === 'user'))
    throw invalidField('messages', 'At least one user message is needed');
  const system = [systemPrompt(santito?.instructions, { instructions: systemParts.join('\n\n') }), knowledge]
    .filter(Boolean)
    .join('\n\n');
  const maxOutputTokens = body.max_completion_tokens ?? body.max_tokens;
  return {
    target: resolved.target,
    messages,
    ...(system ? { system } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(typeof maxOutputTokens === 'number' ? { maxOutputTokens } : {}),
    ...toolsOf(body),
  };
}

/**
 * The OpenAI-compatible API's work (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api): which models a key's user may call, and calls
 * made through the agents' model workers — the same provider code, timeouts and concurrency
 * slots as the user's chats — limited per key per minute.
 */
export function completionsService(ctx: AppContext) {
  const { providers, santitos } = ctx.services;
  const perKey = createAgentLimits(ctx, {
    name: 'apikeys',
    sendsPerMinute: ctx.config.API_KEY_REQUESTS_PER_MINUTE,
  });

  function agents() {
    const service = ctx.services.agents;
    if (!service) throw noModelCalls();
    return service;
  }

  async function resolve(
    caller: ApiKeyCaller,
    model: string,
  ): Promise<{ resolved: ResolvedModel; santito: SantitoRow | undefined }> {
    if (model.startsWith(SANTITO_MODEL_PREFIX)) {
      const santito = await santitos.findUsable(caller, model.slice(SANTITO_MODEL_PREFIX.length));
      if (!santito) throw modelNotFound(model);
      // A santito whose model was removed answers with the default, as in chats.
      return { resolved: await providers.resolveModel(caller, santito.model, true), santito };
    }
    try {
      return { resolved: await providers.resolveModel(caller, model), santito: undefined };
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'MODEL_UNAVAILABLE')) throw err;
    }
    // Clients written for OpenAI name a model bare (`gpt-4.1-mini`, `llama3:8b`): it stands for
    // the one listed model of that name.
    const named = (await providers.models(caller)).models.filter((m) => m.name === model);
    const only = named[0];
    if (!only) throw modelNotFound(model);
    if (named.length > 1)
      throw ambiguousModel(
        model,
        named.map((m) => m.id),
      );
    return { resolved: await providers.resolveModel(caller, only.id), santito: undefined };
  }

  const service = {
    perKey,

    async models(caller: ApiKeyCaller): Promise<OpenAiModelList> {
      const [list, usable] = await Promise.all([providers.models(caller), santitos.listUsable(caller)]);
      const data: OpenAiModel[] = [
        ...list.models.map((m) => ({
          id: m.id,
          object: 'model' as const,
          created: 0,
          owned_by: m.providerLabel,
        })),
        ...usable.map((s) => ({
          id: `${SANTITO_MODEL_PREFIX}${s.id}`,
          object: 'model' as const,
          created: Math.floor(s.createdAt.getTime() / 1000),
          owned_by: s.name,
        })),
      ];
      return { object: 'list', data };
    },

    /**
     * Checks a call and takes what it needs: the key's per-minute allowance, the model, and one of
     * the user's generation slots (taken last, with no await before the caller runs it).
     */
    async prepare(caller: ApiKeyCaller, sent: ChatCompletionRequest): Promise<PreparedCompletion> {
      if (!(await perKey.allowSend(`key:${caller.key.id}`))) {
        throw tooManyKeyRequests(perKey.sendsPerMinute);
      }
      // Before anything reads it: the knowledge search, the model, the usage estimate.
      const body = screenRequest(await ctx.services.pii.filterFor(caller.domain.id), sent);
      const { resolved, santito } = await resolve(caller, body.model);
      const question = body.messages.findLast((m) => m.role === 'user');
      const knowledge =
        santito?.knowledge.length && question
          ? await knowledgeForAnswer(ctx, santito.domainId, santito.knowledge, textOf(question.content))
          : undefined;
      const call = toModelCall(body, resolved, santito, knowledge?.prompt);
      const limits = agents().limits;
      // Before the model is called: a budget without room refuses the call here.
      const ledger = await ctx.services.usage.begin({
        entry: {
          domainId: caller.domain.id,
          departmentId: caller.user.departmentId || null,
          userId: caller.user.id,
          apiKeyId: caller.key.id,
          santitoId: santito?.id ?? null,
          source: 'api',
          model: resolved.modelId,
        },
        estimate: {
          input: () => modelInputParts(call),
          maxOutputTokens: call.maxOutputTokens ?? ctx.config.DEFAULT_MAX_OUTPUT_TOKENS,
        },
      });
      const release = await limits.acquire(caller.user.id);
      if (!release) {
        await ledger.release();
        throw tooManyUserGenerations(limits.maxConcurrent);
      }
      return {
        id: `chatcmpl-${randomBytes(12).toString('base64url')}`,
        created: Math.floor(Date.now() / 1000),
        requestedModel: body.model,
        resolved,
        santito,
        call,
        ledger,
        release,
      };
    },

    /** Starts the prepared call on a model worker; aborting `signal` ends it. */
    start(prepared: PreparedCompletion, signal: AbortSignal): ModelStream {
      return agents().models.start(prepared.call, signal);
    },

    /**
     * Ends a call that ran: frees its slot, reports it to the metrics, and records it (logged, never
     * thrown: the caller already has its answer).
     */
    async end(
      caller: ApiKeyCaller,
      prepared: PreparedCompletion,
      stream: ModelStream,
      end: { stream: boolean; status: CompletionStatus; usage: ModelUsage | undefined; written: string },
    ): Promise<void> {
      prepared.release();
      ctx.metrics.modelCall(prepared.resolved.modelId, stream.firstTokenSeconds, end.usage);
      await service
        .record(caller, prepared, { ...end, text: end.written })
        .catch((err: unknown) => ctx.log.error({ err }, 'openai api: could not record usage'));
    },

    /**
     * A whole call, not streamed: checked, run and recorded. A failure before any output is thrown;
     * one after some output comes back in `result.failure` beside what was written.
     */
    async complete(
      caller: ApiKeyCaller,
      body: ChatCompletionRequest,
      signal: AbortSignal,
    ): Promise<{ prepared: PreparedCompletion; result: CompletionResult }> {
      const prepared = await service.prepare(caller, body);
      let stream: ModelStream;
      try {
        stream = service.start(prepared, signal);
      } catch (err) {
        prepared.release();
        await prepared.ledger.release();
        throw err;
      }
      const result = await collect(stream);
      const written = writtenOf(result.text, result.toolCalls);
      const status = result.failure ? (signal.aborted ? 'stopped' : 'error') : 'complete';
      await service.end(caller, prepared, stream, { stream: false, status, usage: result.usage, written });
      if (result.failure && !written) throw result.failure;
      return { prepared, result };
    },

    /**
     * Settles a finished call in the ledger (the provider's usage, else an estimate from the texts;
     * a failure before any token lets go instead), and logs the request in the key's API log, which
     * keeps how it ended (the ledger keeps what it cost).
     */
    async record(
      caller: ApiKeyCaller,
      prepared: PreparedCompletion,
      end: {
        stream: boolean;
        status: CompletionStatus;
        usage: ModelUsage | undefined;
        /** What the model wrote: the estimate when the provider reported no usage. */
        text: string;
      },
    ): Promise<void> {
      await ctx.services.apiKeys.recordUsage({
        keyId: caller.key.id,
        userId: caller.user.id,
        domainId: caller.domain.id,
        requestedModel: prepared.requestedModel,
        model: prepared.resolved.modelId,
        santitoId: prepared.santito?.id ?? null,
        stream: end.stream,
        status: end.status,
        inputTokens: end.usage?.inputTokens ?? 0,
        outputTokens: end.usage?.outputTokens ?? 0,
        totalTokens: end.usage?.totalTokens ?? 0,
      });
      if (end.status === 'error' && !end.usage && !end.text) await prepared.ledger.release();
      else
        await prepared.ledger.settle(
          await tokensOf(end.usage, { input: () => modelInputParts(prepared.call), output: end.text }),
        );
    },
  };
  return service;
}

export type CompletionsService = ReturnType<typeof completionsService>;
