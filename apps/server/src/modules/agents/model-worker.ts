// A model worker thread: runs model calls through the AI SDK and posts what they stream back to
// the main thread. With a thousand answers at once, reading the providers' streams (HTTP bodies,
// SSE, a JSON document per token) was half of the main thread's time; here it runs beside the
// database and the websockets instead of in front of them.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { AISDKError } from 'ai';
import {
  convertToLanguageModelPrompt,
  prepareCallSettings,
  prepareRetries,
  standardizePrompt,
} from 'ai/internal';
import { createGuardedHttp, trustedRequest } from '../../lib/ssrf.ts';
import { workerSide } from '../../lib/ts-worker.ts';
import { openChatCompletion, readChatCompletion } from '../providers/chat-completions.ts';
import { describeProviderError, isTransportError, providerFailureOf } from '../providers/errors.ts';
import type { ModelTarget } from '../providers/factory.ts';
import { languageModel } from '../providers/sdk.ts';
import type { ModelCall, ModelEvent, ToWorker, WorkerData } from './model-calls.ts';
import { usageOf } from './model-usage.ts';

const { port, data } = workerSide<WorkerData>('model-worker.ts');
const guard = createGuardedHttp({ allowlist: data.allowlist });

/** Built models, by target (building one costs about a millisecond). */
const models = new Map<string, LanguageModelV3>();
function modelFor(target: ModelTarget): LanguageModelV3 {
  const key = JSON.stringify(target);
  let model = models.get(key);
  if (!model) {
    model = languageModel({ ...target, fetch: target.guarded ? guard.fetch : globalThis.fetch }, target.name);
    if (models.size > 200) models.clear();
    models.set(key, model);
  }
  return model;
}

/**
 * Events go out once per turn of this thread's event loop, as one message: a thousand streams'
 * tokens cost the main thread a few messages, not a thousand. Deltas of one call in the same turn
 * are joined.
 */
let outbox: Array<[number, ModelEvent]> = [];
const lastDelta = new Map<number, { type: 'delta'; text: string }>();
function emitEvent(id: number, event: ModelEvent): void {
  if (outbox.length === 0) setImmediate(flush);
  if (event.type === 'delta') {
    const open = lastDelta.get(id);
    if (open) {
      open.text += event.text;
      return;
    }
    lastDelta.set(id, event);
  } else lastDelta.delete(id);
  outbox.push([id, event]);
}
function flush(): void {
  const batch = outbox;
  outbox = [];
  lastDelta.clear();
  port.postMessage(batch);
}

const running = new Map<number, AbortController>();

/**
 * Calls whose provider went silent past a deadline (before its first chunk, or between two) are
 * aborted. One sweep for every call of this thread instead of a timer reset per chunk.
 */
const watched = new Map<
  number,
  { abort: AbortController; last: number; kind: 'first' | 'idle'; timedOut?: 'first' | 'idle' }
>();
const SWEEP_MS = Math.min(1_000, Math.max(25, Math.min(data.firstByteTimeoutMs, data.idleTimeoutMs) / 4));
setInterval(() => {
  const now = Date.now();
  for (const w of watched.values()) {
    const limit = w.kind === 'first' ? data.firstByteTimeoutMs : data.idleTimeoutMs;
    if (!w.timedOut && now - w.last >= limit) {
      w.timedOut = w.kind;
      w.abort.abort();
    }
  }
}, SWEEP_MS).unref();

function timeoutFailure(kind: 'first' | 'idle') {
  const ms = kind === 'first' ? data.firstByteTimeoutMs : data.idleTimeoutMs;
  const span = ms >= 1_000 ? `${Math.round(ms / 1_000)} s` : `${ms} ms`;
  return {
    code: 'PROVIDER_TIMEOUT' as const,
    reason: { code: 'timeout' as const },
    message:
      kind === 'first'
        ? `The AI provider did not start answering within ${span}.`
        : `The AI provider stopped sending for ${span}.`,
  };
}

async function run(id: number, call: ModelCall): Promise<void> {
  const abort = new AbortController();
  running.set(id, abort);
  const signal = abort.signal;
  const watch: { abort: AbortController; last: number; kind: 'first' | 'idle'; timedOut?: 'first' | 'idle' } =
    {
      abort,
      last: Date.now(),
      kind: 'first',
    };
  watched.set(id, watch);
  const emit = (id: number, event: ModelEvent) => {
    watch.last = Date.now();
    watch.kind = 'idle';
    emitEvent(id, event);
  };
  try {
    const { target } = call;
    // OpenAI-compatible servers are read by chat-completions.ts (no SDK model, which would take
    // no URLs as files anyway); the others through their AI SDK model.
    const model = target.kind === 'openai-compatible' ? undefined : modelFor(target);
    const prompt = await convertToLanguageModelPrompt({
      prompt: await standardizePrompt({
        ...(call.system ? { system: call.system } : {}),
        messages: call.messages,
      }),
      supportedUrls: model ? await model.supportedUrls : {},
      download: undefined,
      abortSignal: signal,
    });
    const settings = prepareCallSettings({
      ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
      ...(call.maxOutputTokens !== undefined ? { maxOutputTokens: call.maxOutputTokens } : {}),
    });
    const { retry } = prepareRetries({ maxRetries: 1, abortSignal: signal });
    const tools = call.tools?.map((t) => ({ type: 'function' as const, ...t }));
    const toolOptions = tools?.length
      ? { tools, ...(call.toolChoice ? { toolChoice: call.toolChoice } : {}) }
      : {};
    if (!model) {
      const res = await retry(() =>
        openChatCompletion({
          baseUrl: target.baseUrl,
          apiKey: target.apiKey,
          model: target.name,
          prompt,
          ...settings,
          ...toolOptions,
          request: target.guarded ? guard.request : trustedRequest,
          signal,
        }),
      );
      const end = await readChatCompletion(res, {
        text: (text) => emit(id, { type: 'delta', text }),
        error: (err) =>
          emit(id, { type: 'error', message: describeProviderError(err), reason: providerFailureOf(err) }),
        toolCall: (c) =>
          emit(id, { type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.arguments }),
      });
      const usage = usageOf(end.usage);
      emit(id, { type: 'finish', finishReason: end.finishReason, ...(usage ? { usage } : {}) });
    } else {
      // The other providers' own streams (`doStream`), without streamText's layers of web streams.
      const { stream } = await retry(() =>
        model.doStream({ prompt, ...settings, ...toolOptions, abortSignal: signal }),
      );
      const reader = stream.getReader();
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        if (part.type === 'text-delta') {
          if (part.delta) emit(id, { type: 'delta', text: part.delta });
        } else if (part.type === 'tool-call') {
          emit(id, {
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          });
        } else if (part.type === 'finish') {
          const usage = usageOf(part.usage);
          emit(id, { type: 'finish', finishReason: part.finishReason.unified, ...(usage ? { usage } : {}) });
        } else if (part.type === 'error') {
          emit(id, {
            type: 'error',
            message: describeProviderError(part.error),
            reason: providerFailureOf(part.error),
          });
        }
      }
    }
    if (watch.timedOut) throw signal.reason;
    emit(id, { type: 'end' });
  } catch (err) {
    if (watch.timedOut) emit(id, { type: 'end', failure: timeoutFailure(watch.timedOut) });
    else if (signal.aborted) emit(id, { type: 'end' });
    else {
      const known = AISDKError.isInstance(err) || isTransportError(err);
      emit(id, {
        type: 'end',
        failure: {
          message: describeProviderError(err),
          reason: providerFailureOf(err),
          // Not a provider error itself: those carry the request body, i.e. the user's messages.
          ...(known ? {} : { detail: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
        },
      });
    }
  } finally {
    watched.delete(id);
    running.delete(id);
  }
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'call') void run(msg.id, msg.call);
  else running.get(msg.id)?.abort();
});
