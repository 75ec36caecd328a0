import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { epochNow, fixtureTokens, type LlmFixture, readStamps, startLlmFixture } from './llm-fixture.ts';

let fx: LlmFixture;

beforeAll(async () => {
  fx = await startLlmFixture();
});
afterAll(async () => {
  await fx.close();
});
beforeEach(() => fx.reset());

async function sse(body: Record<string, unknown>): Promise<{ status: number; events: string[] }> {
  const res = await fetch(`${fx.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify({
      model: 'fixture-small',
      messages: [{ role: 'user', content: 'hi there' }],
      ...body,
    }),
  });
  const text = await res.text();
  const events = text
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => e.slice(6));
  return { status: res.status, events };
}

describe('LLM fixture', () => {
  it('splits text into tokens that join back into the text', () => {
    expect(fixtureTokens('Hello big world. ')).toEqual(['Hello ', 'big ', 'world. ']);
    expect(fixtureTokens('a  b').join('')).toBe('a  b');
  });

  it('streams chat completion chunks, a finish chunk, usage on request and [DONE]', async () => {
    fx.setScript({ text: 'one two three', tokensPerChunk: 2 });
    const { status, events } = await sse({ stream: true, stream_options: { include_usage: true } });
    expect(status).toBe(200);
    expect(events.at(-1)).toBe('[DONE]');
    type Chunk = {
      choices: Array<{ delta: { content?: string }; finish_reason: string | null }>;
      usage?: { prompt_tokens: number; completion_tokens: number };
    };
    const parsed = events.slice(0, -1).map((e) => JSON.parse(e) as Chunk);
    const contents = parsed.flatMap((p) => p.choices.map((c) => c.delta.content ?? ''));
    expect(contents.join('')).toBe('one two three');
    expect(contents.filter(Boolean)).toEqual(['one two ', 'three']);
    const finish = parsed.find((p) => p.choices.some((c) => c.finish_reason));
    expect(finish).toBeDefined();
    expect(parsed.at(-1)?.usage).toEqual({ prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 });
  });

  it('leaves usage out unless asked and answers non-streaming requests too', async () => {
    const { events } = await sse({ stream: true });
    expect(events.some((e) => e.includes('"usage"'))).toBe(false);
    const res = await fetch(`${fx.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    });
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]?.message.content).toBe('Hello from the fixture.');
  });

  it('lists models in the OpenAI and Ollama shapes', async () => {
    fx.setModels(['a', 'b']);
    const openai = (await (await fetch(`${fx.baseUrl}/models`)).json()) as { data: Array<{ id: string }> };
    expect(openai.data.map((m) => m.id)).toEqual(['a', 'b']);
    const ollama = (await (await fetch(`${fx.url}/api/tags`)).json()) as { models: Array<{ name: string }> };
    expect(ollama.models.map((m) => m.name)).toEqual(['a', 'b']);
  });

  it('answers scripted HTTP errors with an OpenAI error body', async () => {
    for (const status of [401, 429, 500]) {
      fx.enqueue({ status, errorMessage: `boom ${status}` });
      const res = await fetch(`${fx.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(`boom ${status}`);
    }
  });

  it('fails mid-stream by dropping the socket or by an error event', async () => {
    fx.enqueue({ text: 'a b c d', failAfterChunks: 2 });
    const res = await fetch(`${fx.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, messages: [] }),
    });
    await expect(res.text()).rejects.toThrow();

    fx.enqueue({ text: 'a b c d', failAfterChunks: 1, failMode: 'error-event', errorMessage: 'overloaded' });
    const { events } = await sse({ stream: true });
    expect(events.at(-1)).toContain('overloaded');
    expect(events).not.toContain('[DONE]');
  });

  it('redirects when scripted and records every request', async () => {
    fx.enqueue({ redirectTo: 'http://10.0.0.1/v1/chat/completions' });
    const res = await fetch(`${fx.baseUrl}/chat/completions`, {
      method: 'POST',
      body: '{}',
      redirect: 'manual',
    });
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('http://10.0.0.1/v1/chat/completions');
    expect(fx.chatRequests()).toHaveLength(1);
  });

  it('speaks the protocol the AI SDK expects, with system prompt, temperature and usage recorded', async () => {
    fx.setScript({ text: 'Streaming works fine', delayMs: 2 });
    const provider = createOpenAICompatible({
      name: 'fx',
      baseURL: fx.baseUrl,
      apiKey: 'k',
      includeUsage: true,
    });
    const result = streamText({
      model: provider.chatModel('fixture-small'),
      system: 'Be brief.',
      temperature: 0.3,
      prompt: 'Say something',
    });
    let text = '';
    for await (const d of result.textStream) text += d;
    expect(text).toBe('Streaming works fine');
    expect((await result.usage).outputTokens).toBe(3);
    const req = fx.chatRequests()[0]?.body as {
      temperature: number;
      messages: Array<{ role: string; content: string }>;
    };
    expect(req.temperature).toBe(0.3);
    expect(req.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('speaks Ollama native chat as ollama-ai-provider-v2 expects', async () => {
    fx.setScript({ text: 'Ollama says hi' });
    const ollama = createOllama({ baseURL: `${fx.url}/api` });
    const result = streamText({ model: ollama('llama3.2'), prompt: 'Hi' });
    let text = '';
    for await (const d of result.textStream) text += d;
    expect(text).toBe('Ollama says hi');
    expect((await result.usage).outputTokens).toBe(3);
    expect(await result.finishReason).toBe('stop');
  });

  it('waits for a number of chat requests', async () => {
    const wait = fx.waitForChatRequests(1, 2_000);
    await sse({ stream: false });
    await expect(wait).resolves.toBeUndefined();
  });

  it('stamps chunks with the moment they were written and picks scripts per request', async () => {
    const own = await startLlmFixture({
      record: false,
      scriptFor: (body) =>
        (body as { model?: string }).model === 'stamped'
          ? { chunks: ['a', 'b', 'c'], stamp: true, delayMs: 5 }
          : undefined,
    });
    try {
      const before = epochNow();
      const res = await fetch(`${own.baseUrl}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'stamped', stream: true, messages: [] }),
      });
      const stamps = readStamps(await res.text());
      expect(stamps).toHaveLength(3);
      expect(stamps[0]).toBeGreaterThanOrEqual(before - 1);
      expect((stamps[2] ?? 0) - (stamps[0] ?? 0)).toBeGreaterThanOrEqual(9);
      const plain = await fetch(`${own.baseUrl}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'other', stream: false, messages: [] }),
      });
      expect(
        ((await plain.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message
          .content,
      ).toBe('Hello from the fixture.');
    } finally {
      await own.close();
    }
  });
});
