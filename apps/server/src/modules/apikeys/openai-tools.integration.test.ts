import type { AddressInfo } from 'node:net';
import { ApiKeyCreatedSchema } from '@assistente/contracts';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiUsage } from '../../db/schema/index.ts';
import { type AgentsTestApp, startAgentsTestApp } from '../../test/agents-app.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';

let s: AgentsTestApp;
let base: string;
let user: TestUser;
let model: string;

const weather: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

async function newClient(): Promise<{ c: OpenAI; keyId: string }> {
  const res = await s.t.app.inject({
    method: 'POST',
    url: '/api/v1/api_keys',
    headers: user.headers,
    payload: { name: 'tools client' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const key = ApiKeyCreatedSchema.parse(res.json());
  return { c: new OpenAI({ apiKey: key.secret, baseURL: `${base}/v1`, maxRetries: 0 }), keyId: key.id };
}

/** What the provider was last sent. */
const lastSent = () =>
  s.fx.chatRequests().at(-1)?.body as {
    tools?: unknown;
    tool_choice?: unknown;
    messages: Array<Record<string, unknown>>;
  };

beforeAll(async () => {
  s = await startAgentsTestApp();
  base = `http://127.0.0.1:${(s.t.app.server.address() as AddressInfo).port}`;
  user = await makeUser(s.t.ctx, { domain: s.domain, role: 'Viewer' });
  const listed = await (await newClient()).c.models.list();
  const found = listed.data.find((m) => m.id.endsWith(':fixture-small'));
  if (!found) throw new Error('the fixture model is not listed');
  model = found.id;
});

afterAll(async () => {
  await s?.close();
});

beforeEach(() => s.fx.reset());

describe('client tools through /v1 with the official openai client', () => {
  it('offers the client’s functions to the model and returns its tool_calls', async () => {
    s.fx.enqueue({
      text: '',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Recife"}' }],
    });
    const { c, keyId } = await newClient();
    const res = await c.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Weather in Recife?' }],
      tools: [weather],
      tool_choice: 'auto',
    });
    const choice = res.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Recife"}' } },
    ]);
    expect(lastSent().tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: weather.function.parameters,
        },
      },
    ]);
    expect(lastSent().tool_choice).toBe('auto');
    // A call that only asked for a tool still cost tokens: it is settled, not let go.
    const [row] = await s.t.ctx.db.select().from(apiUsage).where(eq(apiUsage.keyId, keyId));
    expect(row).toMatchObject({ status: 'complete', stream: false });
  });

  it('streams tool calls that the client’s stream helper joins into its final message', async () => {
    s.fx.enqueue({
      text: 'Let me check. ',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: '{"city":"Recife"}' },
        { id: 'call_b', name: 'get_weather', arguments: '{"city":"Lisboa"}' },
      ],
    });
    const { c } = await newClient();
    const stream = c.chat.completions.stream({
      model,
      messages: [{ role: 'user', content: 'Weather in Recife and Lisboa?' }],
      tools: [weather],
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.choices[0]?.message.content).toBe('Let me check. ');
    expect(final.choices[0]?.message.tool_calls?.map((t) => t.type === 'function' && t.function)).toEqual([
      { name: 'get_weather', arguments: '{"city":"Recife"}' },
      { name: 'get_weather', arguments: '{"city":"Lisboa"}' },
    ]);
  });

  it('runs the client’s tool loop: tool messages go back to the model, matched to their calls', async () => {
    s.fx.enqueue(
      { text: '', toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: '{"city":"Recife"}' }] },
      { text: 'It is sunny in Recife.' },
    );
    const { c } = await newClient();
    const asked: unknown[] = [];
    const runner = c.chat.completions.runTools({
      model,
      messages: [{ role: 'user', content: 'Weather in Recife?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'The weather in a city',
            parameters: weather.function.parameters ?? {},
            parse: (text: string): unknown => JSON.parse(text),
            function: (args: unknown) => {
              asked.push(args);
              return { sky: 'sunny' };
            },
          },
        },
      ],
    });
    expect(await runner.finalContent()).toBe('It is sunny in Recife.');
    expect(asked).toEqual([{ city: 'Recife' }]);
    const sent = lastSent().messages;
    expect(sent.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather' } }],
    });
    const [assistantCall] = (sent.at(-2)?.tool_calls ?? []) as Array<{ function: { arguments: string } }>;
    expect(JSON.parse(assistantCall?.function.arguments ?? '')).toEqual({ city: 'Recife' });
    expect(sent.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_w', content: '{"sky":"sunny"}' });
  });

  it('refuses malformed tool input with 400 naming the field, and calls no model', async () => {
    const { c } = await newClient();
    const asked: Array<
      [ChatCompletionMessageParam[], Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>, string]
    > = [
      [
        [
          { role: 'user', content: 'Hi' },
          { role: 'tool', tool_call_id: 'call_nowhere', content: 'orphan' },
        ],
        {},
        'messages.1.tool_call_id',
      ],
      [
        [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_x', type: 'function', function: { name: 'get_weather', arguments: '{city' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_x', content: 'x' },
        ],
        {},
        'messages.1.tool_calls.0.function.arguments',
      ],
      [
        [{ role: 'user', content: 'Hi' }],
        { tools: [weather], tool_choice: { type: 'function', function: { name: 'not_offered' } } },
        'tool_choice',
      ],
      [
        [{ role: 'user', content: 'Hi' }],
        { tools: [{ type: 'function', function: { name: 'has spaces', parameters: {} } }] },
        'tools.0.function.name',
      ],
    ];
    for (const [messages, extra, param] of asked) {
      const err = await c.chat.completions.create({ model, messages, ...extra }).catch((e: unknown) => e);
      expect(err, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as InstanceType<typeof OpenAI.BadRequestError>).param, param).toBe(param);
    }
    expect(s.fx.chatRequests()).toHaveLength(0);
  });
});
