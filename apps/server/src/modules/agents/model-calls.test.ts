import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmFixture, startLlmFixture } from '../../test/llm-fixture.ts';
import type { ModelTarget } from '../providers/factory.ts';
import { INTERRUPTED_MESSAGE, type ModelCall, type ModelEvent, ModelWorkers } from './model-calls.ts';

let fx: LlmFixture;
let workers: ModelWorkers;
const log = Fastify({ logger: { level: 'silent' } }).log;
const timeouts = { firstByteTimeoutMs: 60_000, idleTimeoutMs: 60_000 };

beforeAll(async () => {
  fx = await startLlmFixture();
  workers = new ModelWorkers({ size: 2, allowlist: [`127.0.0.1:${fx.port}`], log, ...timeouts });
});
afterAll(async () => {
  await workers.close();
  await fx.close();
});

const target = (over: Partial<ModelTarget> = {}): ModelTarget => ({
  kind: 'openai-compatible',
  baseUrl: fx.baseUrl,
  apiKey: null,
  guarded: true,
  name: 'fixture-small',
  ...over,
});
const call = (over: Partial<ModelCall> = {}): ModelCall => ({
  target: target(),
  messages: [{ role: 'user', content: 'Hi there' }],
  ...over,
});

/** Every event of a call until its end. */
function collect(
  pool: ModelWorkers,
  c: ModelCall,
  signal = new AbortController().signal,
): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  return new Promise((resolve) => {
    pool.start(c, signal).consume((e) => {
      events.push(e);
      if (e.type === 'end') resolve(events);
    });
  });
}
const text = (events: ModelEvent[]) => events.map((e) => (e.type === 'delta' ? e.text : '')).join('');

describe('model calls on worker threads', () => {
  it('stream the answer, then its finish with usage, then the end', async () => {
    fx.setScript({ text: 'One two three four.', usage: { promptTokens: 7, completionTokens: 4 } });
    const events = await collect(
      workers,
      call({ system: 'Be brief.', temperature: 0.2, maxOutputTokens: 50 }),
    );
    expect(text(events)).toBe('One two three four.');
    expect(events.at(-2)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: 7, outputTokens: 4, totalTokens: 11 },
    });
    expect(events.at(-1)).toEqual({ type: 'end' });
    const sent = fx.chatRequests().at(-1)?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'fixture-small',
      stream: true,
      temperature: 0.2,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi there' },
      ],
    });
  });

  it('run many calls at once, each getting its own answer', async () => {
    fx.reset();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        fx.enqueue({ text: `Answer number ${i}.`, delayMs: 2 });
        return collect(workers, call());
      }),
    );
    expect(answers.map(text).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `Answer number ${i}.`).sort(),
    );
  });

  it('end without a failure when aborted, and close the request to the provider', async () => {
    fx.setScript({ text: 'a b c d e f g h i j k l m n o p', delayMs: 100 });
    const abort = new AbortController();
    const events: ModelEvent[] = [];
    const ended = new Promise<void>((resolve) => {
      workers.start(call(), abort.signal).consume((e) => {
        events.push(e);
        if (e.type === 'delta' && !abort.signal.aborted) abort.abort();
        if (e.type === 'end') resolve();
      });
    });
    await ended;
    expect(events.at(-1)).toEqual({ type: 'end' });
    expect(text(events).length).toBeLessThan('a b c d e f g h i j k l m n o p'.length);
    await expect.poll(() => fx.activeStreams()).toBe(0);
  });

  it('apply the SSRF rule to Admin-set URLs, and trust instance-wide ones', async () => {
    fx.setScript({ text: 'Trusted.' });
    const open = new ModelWorkers({ size: 1, allowlist: [], log, ...timeouts });
    try {
      const refused = await collect(open, call());
      expect(refused.at(-1)).toMatchObject({
        type: 'end',
        failure: { message: expect.stringMatching(/private address/) },
      });
      expect(text(await collect(open, call({ target: target({ guarded: false }) })))).toBe('Trusted.');
    } finally {
      await open.close();
    }
  });

  it('report provider errors: an HTTP status before the stream, an error event inside it', async () => {
    fx.setScript({ status: 401, errorMessage: 'bad key' });
    expect((await collect(workers, call())).at(-1)).toMatchObject({
      type: 'end',
      failure: { message: expect.stringMatching(/refused the API key/) },
    });
    fx.setScript({ text: 'Partial answer here', failAfterChunks: 2, failMode: 'error-event' });
    const events = await collect(workers, call());
    expect(text(events)).toBe('Partial answer ');
    expect(events.some((e) => e.type === 'error')).toBe(true);
  });

  it('end the calls of a worker that stops with a failure', async () => {
    const pool = new ModelWorkers({ size: 1, allowlist: [`127.0.0.1:${fx.port}`], log, ...timeouts });
    // The worker's start (seconds on a loaded machine) comes first; then an answer far longer than
    // any close takes, which can only end interrupted.
    fx.setScript({ text: 'warm' });
    expect(text(await collect(pool, call()))).toBe('warm');
    fx.setScript({ text: 'x y z', firstDelayMs: 30_000 });
    const events = collect(pool, call());
    await fx.waitForChatRequests(fx.chatRequests().length + 1);
    await pool.close();
    expect((await events).at(-1)).toEqual({
      type: 'end',
      failure: { message: INTERRUPTED_MESSAGE, code: 'UNAVAILABLE' },
    });
    // A closed pool makes no more calls.
    expect((await collect(pool, call())).at(-1)).toEqual({
      type: 'end',
      failure: { message: INTERRUPTED_MESSAGE, code: 'UNAVAILABLE' },
    });
  });

  it('give up on a provider that does not start answering, or stops, in time, and hang up on it', async () => {
    const pool = new ModelWorkers({
      size: 1,
      allowlist: [`127.0.0.1:${fx.port}`],
      log,
      firstByteTimeoutMs: 300,
      idleTimeoutMs: 300,
    });
    try {
      // The worker's start (a thread loading the AI SDK, seconds on a loaded machine) is not the
      // provider's silence: calls warm it until one answers within the 300 ms, then the silence is
      // timed (one warm call was not always enough on a machine running other suites).
      fx.setScript({ text: 'warm' });
      let warm = '';
      for (let i = 0; i < 10 && warm !== 'warm'; i++) warm = text(await collect(pool, call()));
      expect(warm).toBe('warm');
      fx.setScript({ text: 'never comes', firstDelayMs: 30_000 });
      const started = Date.now();
      const silent = await collect(pool, call());
      expect(silent.at(-1)).toEqual(timedOut('The AI provider did not start answering within 300 ms.'));
      expect(Date.now() - started).toBeLessThan(5_000);

      fx.setScript({ text: 'first then nothing', delayMs: 30_000 });
      const stalled = await collect(pool, call());
      expect(text(stalled)).toBe('first ');
      expect(stalled.at(-1)).toEqual(timedOut('The AI provider stopped sending for 300 ms.'));
    } finally {
      await pool.close();
    }
  });
});

/** The end of a call the worker timed out, with the sentence it says. */
function timedOut(message: string) {
  return { type: 'end', failure: { code: 'PROVIDER_TIMEOUT', message, reason: { code: 'timeout' } } };
}
