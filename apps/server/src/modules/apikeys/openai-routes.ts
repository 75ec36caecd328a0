import {
  type ChatCompletionChunk,
  ChatCompletionRequestSchema,
  ChatCompletionSchema,
  type CompletionUsage,
  type ErrorCode,
  type MessageUsage,
  type OpenAiError,
  OpenAiErrorSchema,
  OpenAiModelListSchema,
} from '@assistente/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import type { AppContext } from '../../context.ts';
import type { AppError } from '../../lib/errors.ts';
import { openEventStream } from '../../lib/sse.ts';
import { toAppError } from '../../plugins/errors.ts';
import type { ModelEvent, ModelStream, ModelUsage } from '../agents/model-calls.ts';
import { toToolCall, writtenOf } from './completions.ts';
import { providerFailure } from './errors.ts';

/** OpenAI's error `type` for a status. */
function errorType(status: number, code: ErrorCode): string {
  if (code === 'BUDGET_EXCEEDED') return 'insufficient_quota';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** OpenAI's error `code` for ours, where OpenAI has a word for it. */
function errorCode(code: ErrorCode): string {
  switch (code) {
    case 'UNAUTHENTICATED':
      return 'invalid_api_key';
    case 'RATE_LIMITED':
    case 'TOO_MANY_GENERATIONS':
      return 'rate_limit_exceeded';
    case 'MODEL_UNAVAILABLE':
      return 'model_not_found';
    // OpenAI's word for a spent quota; its clients show it as such.
    case 'BUDGET_EXCEEDED':
      return 'insufficient_quota';
    default:
      return code.toLowerCase();
  }
}

/** Any failure in OpenAI's error shape; `details` may name the param and a more precise code. */
function openAiError(err: AppError): OpenAiError {
  const details = err.details as { param?: unknown; code?: unknown } | Array<{ path?: unknown }> | undefined;
  const first = Array.isArray(details) ? details[0] : details;
  const param =
    first && 'param' in first && typeof first.param === 'string'
      ? first.param
      : first && 'path' in first && typeof first.path === 'string' && first.path
        ? first.path
        : null;
  const code =
    first && 'code' in first && typeof first.code === 'string' && !Array.isArray(details)
      ? first.code
      : errorCode(err.code);
  return { error: { message: err.message, type: errorType(err.status, err.code), param, code } };
}

const toCompletionUsage = (u: MessageUsage | undefined): CompletionUsage => ({
  prompt_tokens: u?.inputTokens ?? 0,
  completion_tokens: u?.outputTokens ?? 0,
  total_tokens: u?.totalTokens ?? 0,
});

/** OpenAI's finish reasons for the AI SDK's; others are passed on as they are. */
const FINISH_REASONS: Record<string, string> = {
  'max-tokens': 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
};
const finishReasonOf = (reason: string) => FINISH_REASONS[reason] ?? reason;

const errorResponses = (...statuses: number[]): Record<number, ZodType> =>
  Object.fromEntries(statuses.map((s) => [s, OpenAiErrorSchema]));

/**
 * The OpenAI-compatible API (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api), mounted at /v1 for API keys: the official `openai`
 * clients work against `baseURL = <app>/v1` unchanged. Every failure, the caller check's included,
 * answers in OpenAI's error shape.
 */
export async function openAiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = ctx.services.completions;

  app.setErrorHandler((err, request, reply) => {
    const appErr = toAppError(err);
    // A provider's own failure is its operator's concern, not this server's fault.
    if (appErr.code === 'PROVIDER_ERROR' || appErr.code === 'PROVIDER_TIMEOUT') {
      request.log.warn({ reason: appErr.message }, 'openai api: the provider failed');
    } else if (appErr.status >= 500) request.log.error({ err }, 'request failed');
    reply.status(appErr.status).send(openAiError(appErr));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      error: {
        message: `Unknown request URL: ${request.method} ${request.url.split('?')[0]}`,
        type: 'invalid_request_error',
        param: null,
        code: 'unknown_url',
      },
    } satisfies OpenAiError);
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const key = { auth: 'apiKey' } as const;
  const tags = ['openai'];
  const failures = errorResponses(400, 401, 403, 404, 409, 429, 500, 502, 503, 504);

  r.get(
    '/models',
    {
      config: key,
      schema: {
        tags,
        summary: 'Models and santitos the key’s user may use (`provider:model`, `santito:{id}`)',
        response: { 200: OpenAiModelListSchema, ...failures },
      },
    },
    async (request) => service.models(request.caller),
  );

  r.post(
    '/chat/completions',
    {
      config: key,
      schema: {
        tags,
        summary: 'A chat completion; with `stream: true`, server-sent `chat.completion.chunk` events',
        description:
          'As OpenAI’s Chat Completions. Streaming answers `text/event-stream`: `data: {chunk}` events ' +
          'and a final `data: [DONE]`; with `stream_options.include_usage` a last chunk carries `usage`.',
        body: ChatCompletionRequestSchema,
        // 422: the domain's PII filter blocks what was sent (docs/ARCHITECTURE.md#pii-filter).
        response: { 200: ChatCompletionSchema, ...failures, ...errorResponses(422) },
      },
    },
    async (request, reply) => {
      const caller = request.caller;
      const body = request.body;
      const abort = new AbortController();
      if (body.stream !== true) {
        // The client going away stops the call: nobody would read its answer.
        // (The response's close, not the request's: a request closes once its body is read.)
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        const { prepared, result } = await service.complete(caller, body, abort.signal);
        return {
          id: prepared.id,
          object: 'chat.completion' as const,
          created: prepared.created,
          model: prepared.requestedModel,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant' as const,
                content: result.toolCalls.length && !result.text ? null : result.text,
                refusal: null,
                ...(result.toolCalls.length ? { tool_calls: result.toolCalls } : {}),
              },
              finish_reason: finishReasonOf(result.finishReason),
              logprobs: null,
            },
          ],
          usage: toCompletionUsage(result.usage),
        };
      }

      const prepared = await service.prepare(caller, body);
      let stream: ModelStream;
      try {
        stream = service.start(prepared, abort.signal);
      } catch (err) {
        prepared.release();
        await prepared.ledger.release();
        throw err;
      }
      const res = openEventStream(reply);
      let ended = false;
      res.on('close', () => {
        if (!ended) abort.abort();
      });
      const chunk = (c: Omit<ChatCompletionChunk, 'id' | 'object' | 'created' | 'model'>) =>
        `data: ${JSON.stringify({
          id: prepared.id,
          object: 'chat.completion.chunk',
          created: prepared.created,
          model: prepared.requestedModel,
          ...c,
        } satisfies ChatCompletionChunk)}\n\n`;
      const includeUsage = body.stream_options?.include_usage === true;
      let first = true;
      let finishReason = 'stop';
      let usage: ModelUsage | undefined;
      let failure: AppError | undefined;
      let written = '';
      let toolCalls = 0;
      await new Promise<void>((done) =>
        stream.consume((event: ModelEvent) => {
          switch (event.type) {
            case 'delta':
              written += event.text;
              // A client gone mid-stream has aborted the call; what is still in flight is dropped.
              if (res.destroyed) break;
              res.write(
                chunk({
                  choices: [
                    {
                      index: 0,
                      delta: first ? { role: 'assistant', content: event.text } : { content: event.text },
                      finish_reason: null,
                      logprobs: null,
                    },
                  ],
                }),
              );
              first = false;
              break;
            case 'tool-call': {
              const call = toToolCall(event);
              written += writtenOf('', [call]);
              if (res.destroyed) break;
              const index = toolCalls++;
              res.write(
                chunk({
                  choices: [
                    {
                      index: 0,
                      delta: {
                        ...(first ? { role: 'assistant' as const } : {}),
                        tool_calls: [{ index, ...call }],
                      },
                      finish_reason: null,
                      logprobs: null,
                    },
                  ],
                }),
              );
              first = false;
              break;
            }
            case 'finish':
              finishReason = event.finishReason;
              usage = event.usage;
              break;
            case 'error':
              failure ??= providerFailure(event.message);
              break;
            case 'end':
              if (event.failure && !abort.signal.aborted) {
                failure ??= providerFailure(event.failure.message, event.failure.code);
              }
              done();
          }
        }),
      );
      if (!res.destroyed) {
        if (failure) {
          // OpenAI's clients raise an `error` event inside a stream as an APIError.
          res.write(`data: ${JSON.stringify(openAiError(failure))}\n\n`);
        } else {
          res.write(
            chunk({
              choices: [{ index: 0, delta: {}, finish_reason: finishReasonOf(finishReason), logprobs: null }],
            }),
          );
          if (includeUsage) res.write(chunk({ choices: [], usage: toCompletionUsage(usage) }));
        }
        res.write('data: [DONE]\n\n');
      }
      const status = abort.signal.aborted ? 'stopped' : failure ? 'error' : 'complete';
      await service.end(caller, prepared, stream, { stream: true, status, usage, written });
      ended = true;
      res.end();
    },
  );
}
