import { type MessagePart, ToolListSchema } from '@assistente/contracts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { usageEvents } from '../../db/schema/index.ts';
import { useAgentsSuite } from '../../test/agents-suite.ts';
import { makeUser, type TestUser } from '../../test/factories.ts';

// `generate_image` (docs/ARCHITECTURE.md#built-in-tools): the domain's image model (here the
// fixture's OpenAI Images API) draws; the image is the chat's attachment, one ledger row priced
// per image, budgets hold before it is drawn.

const { the, connect, rid, exchange, waitForStored } = useAgentsSuite();
let imageModel: string;
let superAdmin: TestUser;

async function call(who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return the.t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
}

const toolParts = (parts: MessagePart[] | null | undefined) =>
  (parts ?? []).filter((p): p is Extract<MessagePart, { type: 'tool' }> => p.type === 'tool');

async function illustrator(): Promise<string> {
  const res = await call(the.admin, 'POST', '/api/v1/agent', {
    name: `Illustrator ${rid()}`,
    tools: ['builtin:generate_image'],
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { _id: string })._id;
}

const draw = (prompt: string) => ({
  text: '',
  toolCalls: [{ name: 'generate_image', arguments: JSON.stringify({ prompt, size: '1024x1024' }) }],
});

const imageRows = (userId: string) =>
  the.t.ctx.db
    .select()
    .from(usageEvents)
    .where(and(eq(usageEvents.userId, userId), eq(usageEvents.source, 'image')));

beforeAll(async () => {
  superAdmin = await makeUser(the.t.ctx, { role: 'SuperAdmin' });
  // An OpenAI-compatible provider of the domain that lists an image model.
  const res = await call(the.admin, 'POST', '/api/v1/settings/providers', {
    kind: 'openai-compatible',
    label: 'Images',
    baseUrl: the.fx.baseUrl,
    models: ['gpt-image-1'],
  });
  expect(res.statusCode, res.body).toBe(201);
  imageModel = `${(res.json() as { id: string }).id}:gpt-image-1`;
  const allow = await call(the.admin, 'PUT', '/api/v1/settings/tools', {
    rules: [{ match: 'builtin:generate_image', decision: 'allow' }],
    userServers: false,
  });
  expect(allow.statusCode, allow.body).toBe(200);
});

describe('generate_image', () => {
  it('is offered once a provider lists an image model', async () => {
    const list = ToolListSchema.parse((await call(the.alice, 'GET', '/api/v1/agent/tools')).json());
    expect(list.builtins.find((b) => b.name === 'generate_image')).toMatchObject({ unavailable: null });
  });

  it('draws with the domain’s image model: shown, stored as the chat’s file, one ledger row priced per image', async () => {
    const price = await call(superAdmin, 'PUT', `/api/v1/usage/prices/${encodeURIComponent(imageModel)}`, {
      inputPerMillion: 0,
      outputPerMillion: 0,
      perImage: 0.04,
      currency: 'USD',
    });
    expect(price.statusCode, price.body).toBe(200);
    expect(price.json()).toMatchObject({ perImage: 0.04 });

    const agentId = await illustrator();
    the.fx.enqueue(draw('Uma raposa vermelha na neve, aquarela'), { text: 'Here is your fox.' });
    const s = await connect(the.alice);
    const r = await exchange(s, { agentId, content: 'Draw a fox' });
    expect(r.done.status).toBe('complete');

    const images = the.fx.requests.filter((q) => q.path === '/v1/images/generations');
    expect(images).toHaveLength(1);
    expect(images[0]?.body).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'Uma raposa vermelha na neve, aquarela',
      n: 1,
    });
    const result = await s.next('tool.result', (f) => f.messageId === r.assistant.messageId);
    const [file] = result.files ?? [];
    expect(file).toMatchObject({
      name: 'uma-raposa-vermelha-na-neve-aquarela.png',
      contentType: 'image/png',
    });
    const row = await waitForStored(r.assistant.messageId);
    expect(toolParts(row?.parts)[0]?.files).toEqual([file]);
    const bytes = await call(the.alice, 'GET', file?.url ?? '');
    expect(bytes.statusCode).toBe(200);
    expect(bytes.rawPayload.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect((await call(the.bob, 'GET', file?.url ?? '')).statusCode).toBe(404);

    await expect.poll(async () => (await imageRows(the.alice.user.id)).length).toBe(1);
    const [event] = await imageRows(the.alice.user.id);
    expect(event).toMatchObject({
      model: imageModel,
      images: 1,
      costMicros: 40_000,
      inputTokens: 0,
      outputTokens: 0,
    });
  });

  it('holds to a money budget before drawing: no room, no image, no row', async () => {
    const budget = await call(the.admin, 'POST', '/api/v1/usage/budgets', {
      scope: { kind: 'user', userId: the.bob.user.id },
      period: 'month',
      limit: { costMicros: 30_000 },
    });
    expect(budget.statusCode, budget.body).toBe(201);
    const agentId = await illustrator();
    // The answer's own steps are priced by the fixture model having no price: the budget covers
    // that model too, so a price is set for it first.
    await call(superAdmin, 'PUT', `/api/v1/usage/prices/${encodeURIComponent(the.modelId)}`, {
      inputPerMillion: 0,
      outputPerMillion: 0,
      currency: 'USD',
    });
    the.fx.enqueue(draw('A lighthouse at dusk'), { text: 'The budget is spent.' });
    const before = the.fx.requests.filter((q) => q.path === '/v1/images/generations').length;
    const r = await exchange(await connect(the.bob), { agentId, content: 'Draw a lighthouse' });
    const row = await waitForStored(r.assistant.messageId);
    const [part] = toolParts(row?.parts);
    expect(part?.status).toBe('error');
    expect(part?.output).toMatch(/budget/i);
    expect(the.fx.requests.filter((q) => q.path === '/v1/images/generations').length).toBe(before);
    expect(await imageRows(the.bob.user.id)).toEqual([]);
    await call(the.admin, 'DELETE', `/api/v1/usage/budgets/${(budget.json() as { id: string }).id}`);
  });

  it('a prompt the provider refuses is the step’s error in words, and costs nothing', async () => {
    const agentId = await illustrator();
    const who = await makeUser(the.t.ctx, { domain: the.dom });
    the.fx.enqueue(draw('something forbidden'), { text: 'It was refused.' });
    const r = await exchange(await connect(who), { agentId, content: 'Draw it' });
    const row = await waitForStored(r.assistant.messageId);
    expect(toolParts(row?.parts)[0]).toMatchObject({
      status: 'error',
      output: expect.stringContaining('safety system'),
    });
    expect(await imageRows(who.user.id)).toEqual([]);
  });
});
